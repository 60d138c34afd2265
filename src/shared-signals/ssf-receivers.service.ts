import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { notFound } from '../common/common.errors';
import { generateToken, sha256Hex } from '../common/crypto/tokens';
import { isUuid } from '../common/ids';
import type { RequestMeta } from '../common/request-context';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { type AuditFacts, byDeveloper } from '../events/domain-events';
import { WorkspaceMembership } from '../workspaces/workspace-membership';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import type { CreateSsfReceiverDto } from './dto/ssf-receiver.dto';
import type { SsfReceiver } from './entities/ssf-receiver.entity';
import { SSF_CLIENT_ID_PREFIX } from './ssf-client.store';
import { SsfReceiversRepository } from './ssf-receivers.repository';
import { toReceiverView } from './ssf-receivers.views';
import { SsfStreamsRepository } from './ssf-streams.repository';

/**
 * The developer's side of Shared Signals (decision 0520): registering a receiver of a workspace
 * gives it OAuth client credentials (the secret shown once, stored as SHA-256); deleting it ends
 * its stream and every token it holds.
 */
@Injectable()
export class SsfReceiversService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly receivers: SsfReceiversRepository,
    private readonly streams: SsfStreamsRepository,
    private readonly membership: WorkspaceMembership,
  ) {}

  create({ workspaceId, developer: p }: WorkspaceScope, dto: CreateSsfReceiverDto, request: RequestMeta) {
    return this.uow.run(async (tx, events) => {
      const secret = generateToken('ssfs_');
      const receiver = await this.receivers.insert(tx, workspaceId, {
        name: dto.name,
        clientId: `${SSF_CLIENT_ID_PREFIX}${randomBytes(16).toString('hex')}`,
        secretHash: sha256Hex(secret),
        defaultSubjects: dto.default_subjects ?? 'NONE',
        createdBy: p.developerId,
      });
      events.emit('ssf_receiver_create', facts(p, receiver, request));
      return {
        id: receiver.id,
        workspace_id: receiver.workspaceId,
        name: receiver.name,
        client_id: receiver.clientId,
        client_secret: secret,
        default_subjects: receiver.defaultSubjects,
        created_at: receiver.createdAt.toISOString(),
      };
    });
  }

  async list({ workspaceId }: WorkspaceScope) {
    const receivers = await this.receivers.list(workspaceId);
    const streams = await this.streams.listForReceivers(
      workspaceId,
      receivers.map((r) => r.id),
    );
    return Promise.all(
      receivers.map(async (r) => {
        const stream = streams.find((s) => s.receiverId === r.id);
        return toReceiverView(r, stream, stream ? await this.streams.deliverySummary(workspaceId, stream.id) : null);
      }),
    );
  }

  async get(p: DeveloperPrincipal, id: string) {
    const receiver = await this.load(null, p, id);
    const stream = await this.streams.findForReceiver(null, receiver.workspaceId, receiver.id);
    return toReceiverView(
      receiver,
      stream ?? undefined,
      stream ? await this.streams.deliverySummary(receiver.workspaceId, stream.id) : null,
    );
  }

  async delete(p: DeveloperPrincipal, id: string, request: RequestMeta): Promise<void> {
    await this.uow.run(async (tx, events) => {
      const receiver = await this.load(tx, p, id);
      if (await this.receivers.delete(tx, receiver.workspaceId, receiver.id)) {
        events.emit('ssf_receiver_delete', facts(p, receiver, request));
      }
    });
  }

  /** The receiver, if the developer is a member of its workspace; 404 otherwise (never 403 across tenants). */
  private async load(tx: Tx | null, p: DeveloperPrincipal, id: string): Promise<SsfReceiver> {
    if (!isUuid(id)) throw notFound('SSF receiver');
    const receiver = await this.receivers.findById(tx, id);
    if (!receiver || !(await this.membership.roleOf(p.developerId, receiver.workspaceId, tx))) throw notFound('SSF receiver');
    return receiver;
  }
}

function facts(p: DeveloperPrincipal, receiver: SsfReceiver, request: RequestMeta): AuditFacts {
  return {
    ...byDeveloper(p, receiver.workspaceId, { type: 'SsfReceiver', id: receiver.id }, request),
    metadata: { name: receiver.name, client_id: receiver.clientId, default_subjects: receiver.defaultSubjects },
  };
}
