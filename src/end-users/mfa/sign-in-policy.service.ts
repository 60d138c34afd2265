import { Injectable } from '@nestjs/common';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import type { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import type { PolicyAction } from './entities/sign-in-policy.entity';
import { Policy } from './sign-in-policy';
import { SignInPolicyRepository } from './sign-in-policy.repository';

export interface SignInPolicyView {
  workspace_id: string;
  new_device: PolicyAction;
  new_ip: PolicyAction;
  updated_at: string | null;
}

/** The developer API of a workspace's sign-in policy (off by default: every kind `allow`). */
@Injectable()
export class SignInPolicyService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: SignInPolicyRepository,
    private readonly workspaces: WorkspacesService,
    private readonly clock: Clock,
  ) {}

  async get(principal: DeveloperPrincipal, workspaceId: string): Promise<SignInPolicyView> {
    await this.workspaces.assertMember(principal.developerId, workspaceId);
    const row = await this.repo.get(workspaceId);
    return {
      workspace_id: workspaceId,
      new_device: row?.newDevice ?? 'allow',
      new_ip: row?.newIp ?? 'allow',
      updated_at: row ? row.updatedAt.toISOString() : null,
    };
  }

  /** Kinds left out keep their current action. Audited as workspace_update. */
  async set(principal: DeveloperPrincipal, workspaceId: string, changes: Partial<Policy>, request: RequestMeta): Promise<SignInPolicyView> {
    await this.workspaces.assertMember(principal.developerId, workspaceId);
    const current = await this.get(principal, workspaceId);
    const policy: Policy = { new_device: changes.new_device ?? current.new_device, new_ip: changes.new_ip ?? current.new_ip };
    const now = this.clock.now();
    await this.uow.run(async (tx, events) => {
      await this.workspaces.assertMember(principal.developerId, workspaceId, tx);
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
