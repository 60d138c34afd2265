import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hosted sign-up per application (decision 0317): an application that turns allow_signup on gets
 * "Create an account" on its hosted login. Off for every existing application.
 */
export class ApplicationSignUp1795820000001 implements MigrationInterface {
  name = 'ApplicationSignUp1795820000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_clients ADD COLUMN allow_signup boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN allow_signup`);
  }
}
