import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import type { RequestMeta } from '../common/request-context';
import { UnitOfWork } from '../database/unit-of-work';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import { Policy, POLICY_KINDS } from './sign-in-policy';
import { SignInPolicyRepository } from './sign-in-policy.repository';
import type { ViewOf } from '../api-docs/response-schema';
import type { SignInPolicySchema } from './mfa.schemas';

export type SignInPolicyView = ViewOf<typeof SignInPolicySchema>;

/**
 * The developer API of a workspace's sign-in policy (off by default: every kind `allow`). Membership
 * is settled before a method runs (WorkspaceMemberGuard): each takes the route's WorkspaceScope.
 */
@Injectable()
export class SignInPolicyService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: SignInPolicyRepository,
    private readonly clock: Clock,
  ) {}

  async get({ workspaceId }: WorkspaceScope): Promise<SignInPolicyView> {
    const row = await this.repo.get(workspaceId);
    return {
      workspace_id: workspaceId,
      new_device: row?.newDevice ?? 'allow',
      new_ip: row?.newIp ?? 'allow',
      new_country: row?.newCountry ?? 'allow',
      impossible_travel: row?.impossibleTravel ?? 'allow',
      updated_at: row ? row.updatedAt.toISOString() : null,
    };
  }

  /** Kinds left out keep their current action. Audited as workspace_update. */
  async set(scope: WorkspaceScope, changes: Partial<Policy>, request: RequestMeta): Promise<SignInPolicyView> {
    const { workspaceId, developer: principal } = scope;
    const current = await this.get(scope);
    const policy = Object.fromEntries(POLICY_KINDS.map((kind) => [kind, changes[kind] ?? current[kind]])) as Policy;
    const now = this.clock.now();
    await this.uow.run(async (tx, events) => {
      await this.repo.save(tx, workspaceId, policy, now);
      events.emit('workspace_update', {
        workspaceId,
        actor: { type: 'developer', id: principal.developerId, email: principal.email },
        target: { type: 'Workspace', id: workspaceId },
        message: 'Sign-in policy changed',
        request,
        metadata: { sign_in_policy: policy },
      });
    });
    return { workspace_id: workspaceId, ...policy, updated_at: now.toISOString() };
  }
}
