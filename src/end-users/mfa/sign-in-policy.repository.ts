import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';
import { bool, QueryRow, text } from '../../database/rows';
import type { Tx } from '../../database/unit-of-work';
import { PolicyAction, SignInPolicy } from './entities/sign-in-policy.entity';
import type { DeviceFacts, Policy } from './sign-in-policy';

// One round trip on the sign-in path: no row (no policy, the default) ends it at the primary key.
// With a policy, three EXISTS probes on the user's sessions (index on workspace_id, user_id).
const EVALUATE = `SELECT p.new_device, p.new_ip,
         EXISTS (SELECT 1 FROM end_user_sessions s WHERE s.workspace_id = $1 AND s.user_id = $2) AS any_session,
         EXISTS (SELECT 1 FROM end_user_sessions s WHERE s.workspace_id = $1 AND s.user_id = $2
                    AND s.browser_family = $3 AND s.os_family = $4) AS pair_seen,
         EXISTS (SELECT 1 FROM end_user_sessions s WHERE s.workspace_id = $1 AND s.user_id = $2
                    AND s.browser_family = $3 AND s.os_family = $4 AND s.ip_address IS NOT DISTINCT FROM $5) AS triple_seen
    FROM sign_in_policies p
   WHERE p.workspace_id = $1 AND (p.new_device <> 'allow' OR p.new_ip <> 'allow')`;

function action(row: QueryRow, column: string): PolicyAction {
  const value = text(row, column);
  if (value !== 'allow' && value !== 'challenge' && value !== 'block') throw new Error(`unexpected policy action ${value}`);
  return value;
}

/** sign_in_policies, and the device facts of a sign-in read from end_user_sessions. */
@Injectable()
export class SignInPolicyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async evaluate(
    workspaceId: string,
    userId: string,
    device: { browserFamily: string; osFamily: string; ip: string | null },
  ): Promise<{ policy: Policy; facts: DeviceFacts } | null> {
    const [row] = await preparedQuery(this.dataSource, EVALUATE, [workspaceId, userId, device.browserFamily, device.osFamily, device.ip]);
    if (!row) return null;
    return {
      policy: { new_device: action(row, 'new_device'), new_ip: action(row, 'new_ip') },
      facts: { anySession: bool(row, 'any_session'), pairSeen: bool(row, 'pair_seen'), tripleSeen: bool(row, 'triple_seen') },
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
      .values({ workspaceId, newDevice: policy.new_device, newIp: policy.new_ip, updatedAt: now })
      .orUpdate(['new_device', 'new_ip', 'updated_at'], ['workspace_id'])
      .updateEntity(false)
      .execute();
  }
}
