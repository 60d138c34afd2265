import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TRAVEL_WINDOW_MS } from '../anomalies/detectors/geo.detectors';
import { computed, entityColumns } from '../database/row-shape';
import { first, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { PolicyAction, SignInPolicy } from './entities/sign-in-policy.entity';
import type { DeviceFacts, GeoFacts, Policy } from './sign-in-policy';

// One round trip on the sign-in path: no row (no policy, the default) ends it at the primary key.
// With a policy, three EXISTS probes on the user's sessions (index on workspace_id, user_id), and,
// only when a geo kind has a policy, the user's known countries and latest place within the travel
// window (decision 0326).
const ACTIONS: readonly PolicyAction[] = ['allow', 'challenge', 'block'];

const EVALUATE = statement(
  'sign-in-policies.evaluate',
  `SELECT p.new_device, p.new_ip, p.new_country, p.impossible_travel,
         EXISTS (SELECT 1 FROM end_user_sessions s WHERE s.workspace_id = $1 AND s.user_id = $2) AS any_session,
         EXISTS (SELECT 1 FROM end_user_sessions s WHERE s.workspace_id = $1 AND s.user_id = $2
                    AND s.browser_family = $3 AND s.os_family = $4) AS pair_seen,
         EXISTS (SELECT 1 FROM end_user_sessions s WHERE s.workspace_id = $1 AND s.user_id = $2
                    AND s.browser_family = $3 AND s.os_family = $4 AND s.ip_address IS NOT DISTINCT FROM $5) AS triple_seen,
         CASE WHEN p.new_country <> 'allow' THEN ARRAY(
           SELECT DISTINCT s.country FROM end_user_sessions s
            WHERE s.workspace_id = $1 AND s.user_id = $2 AND s.country IS NOT NULL LIMIT 300) ELSE '{}' END AS known_countries,
         CASE WHEN p.impossible_travel <> 'allow' THEN (
           SELECT json_build_object('country', s.country, 'city', s.city, 'latitude', s.latitude, 'longitude', s.longitude,
                                    'created_ms', extract(epoch FROM s.created_at) * 1000)
             FROM end_user_sessions s
            WHERE s.workspace_id = $1 AND s.user_id = $2 AND s.latitude IS NOT NULL AND s.longitude IS NOT NULL
              AND s.created_at > $6 AND s.created_at <= $7
            ORDER BY s.created_at DESC LIMIT 1) END AS last_place
    FROM sign_in_policies p
   WHERE p.workspace_id = $1
     AND (p.new_device <> 'allow' OR p.new_ip <> 'allow' OR p.new_country <> 'allow' OR p.impossible_travel <> 'allow')`,
  entityColumns(SignInPolicy, ['newDevice', 'newIp', 'newCountry', 'impossibleTravel'], {
    values: { newDevice: ACTIONS, newIp: ACTIONS, newCountry: ACTIONS, impossibleTravel: ACTIONS },
  }).and(
    computed({
      anySession: ['any_session', 'boolean'],
      pairSeen: ['pair_seen', 'boolean'],
      tripleSeen: ['triple_seen', 'boolean'],
      knownCountries: ['known_countries', 'text[]'],
      lastPlace: ['last_place', 'json?'],
    }),
  ),
);

/** The latest earlier place, as json_build_object wrote it. */
function toPlace(value: unknown): GeoFacts['lastPlace'] {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  const str = (x: unknown) => (typeof x === 'string' ? x : null);
  const ms = num(v.created_ms);
  if (ms === null) return null;
  const createdAt = new Date(ms);
  return { country: str(v.country), city: str(v.city), latitude: num(v.latitude), longitude: num(v.longitude), createdAt };
}

/** sign_in_policies, and the device facts of a sign-in read from end_user_sessions. */
@Injectable()
export class SignInPolicyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async evaluate(
    workspaceId: string,
    userId: string,
    device: { browserFamily: string; osFamily: string; ip: string | null },
    now: Date,
  ): Promise<{ policy: Policy; facts: DeviceFacts; history: Omit<GeoFacts, 'current'> } | null> {
    const windowStart = new Date(now.getTime() - TRAVEL_WINDOW_MS);
    const row = await first(this.dataSource, EVALUATE, [
      workspaceId,
      userId,
      device.browserFamily,
      device.osFamily,
      device.ip,
      windowStart,
      now,
    ]);
    if (!row) return null;
    return {
      policy: {
        new_device: row.newDevice,
        new_ip: row.newIp,
        new_country: row.newCountry,
        impossible_travel: row.impossibleTravel,
      },
      facts: { anySession: row.anySession, pairSeen: row.pairSeen, tripleSeen: row.tripleSeen },
      history: { knownCountries: row.knownCountries, lastPlace: toPlace(row.lastPlace) },
    };
  }

  get(workspaceId: string): Promise<SignInPolicy | null> {
    return this.dataSource.getRepository(SignInPolicy).findOne({ where: { workspaceId } });
  }

  async save(tx: Tx, workspaceId: string, policy: Policy, now: Date): Promise<void> {
    await tx
      .getRepository(SignInPolicy)
      .createQueryBuilder()
      .insert()
      .values({
        workspaceId,
        newDevice: policy.new_device,
        newIp: policy.new_ip,
        newCountry: policy.new_country,
        impossibleTravel: policy.impossible_travel,
        updatedAt: now,
      })
      .orUpdate(['new_device', 'new_ip', 'new_country', 'impossible_travel', 'updated_at'], ['workspace_id'])
      .updateEntity(false)
      .execute();
  }
}
