import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Step-up on risk for every anomaly kind (decision 0326): sign_in_policies gains
 * new_country and impossible_travel, judged before the session from the sign-in address's
 * location (the geolocation cache first) against the user's geolocated sessions.
 */
export class SignInPoliciesForGeoKinds1795710000001 implements MigrationInterface {
  name = 'SignInPoliciesForGeoKinds1795710000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sign_in_policies
        ADD COLUMN new_country text NOT NULL DEFAULT 'allow' CHECK (new_country IN ('allow', 'challenge', 'block')),
        ADD COLUMN impossible_travel text NOT NULL DEFAULT 'allow' CHECK (impossible_travel IN ('allow', 'challenge', 'block'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sign_in_policies DROP COLUMN impossible_travel, DROP COLUMN new_country`);
  }
}
