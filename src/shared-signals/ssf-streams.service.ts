import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { SsfReceiverPrincipal } from '../common/auth/principal';
import { COMMON_ERRORS, notFound } from '../common/common.errors';
import { SecretBox } from '../common/crypto/secret-box';
import { isUniqueViolation } from '../common/db-errors';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { JobsService } from '../jobs/jobs.service';
import { OAuthServerInfo } from '../oauth/discovery/oauth-server-info';
import { unsafeTargetReason } from '../common/safe-http';
import type { SsfStatusDto, SsfStreamConfigDto, SsfSubjectDto, SsfVerificationDto } from './dto/ssf-stream.dto';
import { PUSH, POLL, SsfStream } from './entities/ssf-stream.entity';
import { SetSigner } from './set-signer';
import { SubjectId, subjectKey, VERIFICATION } from './ssf-events';
import { SSF_PUSH_ATTEMPTS, SSF_PUSH_QUEUE } from './ssf-queue';
import { SsfReceiversRepository } from './ssf-receivers.repository';
import { StreamValues, SsfStreamsRepository } from './ssf-streams.repository';
import { toStatus, toStreamConfig } from './ssf-stream.views';

const MAX_IDENTIFIER = 512;

/**
 * A receiver's management of its stream (SSF 1.0 §8): configuration (create, read, update,
 * replace, delete), status, subjects, verification. One stream per receiver (decision 0522). A
 * stream id that is not the caller's is a 404, whoever owns it.
 */
@Injectable()
export class SsfStreamsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly streams: SsfStreamsRepository,
    private readonly receivers: SsfReceiversRepository,
    private readonly signer: SetSigner,
    private readonly jobs: JobsService,
    private readonly server: OAuthServerInfo,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly box: SecretBox,
  ) {}

  /** GET /.well-known/ssf-configuration (SSF 1.0 §7.1). */
  metadata() {
    const url = (path: string) => this.server.url(path);
    return {
      spec_version: '1_0',
      issuer: this.server.issuer,
      jwks_uri: url('/oauth/jwks'),
      delivery_methods_supported: [PUSH, POLL],
      configuration_endpoint: url('/ssf/streams'),
      status_endpoint: url('/ssf/status'),
      add_subject_endpoint: url('/ssf/subjects/add'),
      remove_subject_endpoint: url('/ssf/subjects/remove'),
      verification_endpoint: url('/ssf/verify'),
      authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6749' }],
      default_subjects: 'NONE',
    };
  }

  async create(p: SsfReceiverPrincipal, dto: SsfStreamConfigDto) {
    const values = await this.values(dto, null);
    try {
      return await this.uow.run(async (tx) => {
        if (await this.streams.findForReceiver(tx, p.workspaceId, p.receiverId)) throw oneStream();
        return this.view(p, await this.streams.insert(tx, p.workspaceId, p.receiverId, values));
      });
    } catch (err) {
      if (isUniqueViolation(err, 'ssf_streams_receiver_key')) throw oneStream();
      throw err;
    }
  }

  /** SSF 1.0 §8.1.1.2: one stream by id, or every stream of the receiver (an array) without one. */
  async read(p: SsfReceiverPrincipal, streamId: string | undefined) {
    const stream = await this.streams.findForReceiver(null, p.workspaceId, p.receiverId);
    if (streamId === undefined) return stream ? [this.view(p, stream)] : [];
    return this.view(p, this.own(stream, streamId));
  }

  /** PATCH (§8.1.1.3) changes the members sent; PUT (§8.1.1.4) replaces every receiver-supplied one. */
  async update(p: SsfReceiverPrincipal, streamId: string, dto: SsfStreamConfigDto, replace: boolean) {
    return this.uow.run(async (tx) => {
      const stream = this.own(await this.streams.findForReceiver(tx, p.workspaceId, p.receiverId), streamId);
      const values = await this.values(dto, replace ? null : stream);
      await this.streams.update(tx, p.workspaceId, stream.id, values);
      return this.view(p, (await this.streams.findForReceiver(tx, p.workspaceId, p.receiverId))!);
    });
  }

  async delete(p: SsfReceiverPrincipal, streamId: string): Promise<void> {
    await this.uow.run(async (tx) => {
      const stream = this.own(await this.streams.findForReceiver(tx, p.workspaceId, p.receiverId), streamId);
      await this.streams.delete(tx, p.workspaceId, stream.id);
    });
  }

  async status(p: SsfReceiverPrincipal, streamId: string) {
    return toStatus(this.own(await this.streams.findForReceiver(null, p.workspaceId, p.receiverId), streamId));
  }

  /** Paused: events are held and delivered on resume. Disabled: events are not held (SSF 1.0 §8.1.2). */
  async setStatus(p: SsfReceiverPrincipal, dto: SsfStatusDto) {
    return this.uow.run(async (tx) => {
      const stream = this.own(await this.streams.findForReceiver(tx, p.workspaceId, p.receiverId), dto.stream_id);
      await this.streams.setStatus(tx, p.workspaceId, stream.id, dto.status, dto.reason ?? null);
      return toStatus({ ...stream, status: dto.status, statusReason: dto.reason ?? null });
    });
  }

  async addSubject(p: SsfReceiverPrincipal, dto: SsfSubjectDto): Promise<void> {
    const subject = parseSubject(dto.subject);
    await this.uow.run(async (tx) => {
      const stream = this.own(await this.streams.findForReceiver(tx, p.workspaceId, p.receiverId), dto.stream_id);
      await this.streams.include(tx, p.workspaceId, stream.id, subjectKey(subject), subject);
    });
  }

  /** From a stream of ALL, a removed subject is remembered as excluded; from one of NONE it is forgotten. */
  async removeSubject(p: SsfReceiverPrincipal, dto: SsfSubjectDto): Promise<void> {
    const subject = parseSubject(dto.subject);
    await this.uow.run(async (tx) => {
      const stream = this.own(await this.streams.findForReceiver(tx, p.workspaceId, p.receiverId), dto.stream_id);
      const receiver = await this.receivers.find(tx, p.workspaceId, p.receiverId);
      await this.streams.exclude(tx, p.workspaceId, stream.id, subjectKey(subject), subject, receiver?.defaultSubjects === 'ALL');
    });
  }

  /** SSF 1.0 §8.1.4: a verification SET about the stream itself, echoing `state`, by the stream's delivery. */
  async verify(p: SsfReceiverPrincipal, dto: SsfVerificationDto): Promise<void> {
    await this.uow.run(async (tx) => {
      const stream = this.own(await this.streams.findForReceiver(tx, p.workspaceId, p.receiverId), dto.stream_id);
      const { jti, token } = await this.signer.sign({
        audience: p.clientId,
        subject: { format: 'opaque', id: stream.id },
        eventType: VERIFICATION,
        event: dto.state !== undefined ? { state: dto.state } : {},
        txn: randomUUID(),
      });
      await this.streams.insertSets(tx, [{ workspaceId: p.workspaceId, streamId: stream.id, jti, eventType: VERIFICATION, token }]);
      if (stream.deliveryMethod === PUSH) await this.enqueuePush(tx, stream);
    });
  }

  /**
   * SETs were made for a push stream, under its row lock: the job draining it (if one holds its
   * lease) reads them before letting go; otherwise one job is queued for the stream (decision 0972).
   */
  async enqueuePush(tx: Tx, stream: Pick<SsfStream, 'workspaceId' | 'id'>): Promise<void> {
    if (await this.streams.pokePush(tx, stream.workspaceId, stream.id)) return;
    await this.jobs.enqueue(
      tx,
      SSF_PUSH_QUEUE,
      { workspace_id: stream.workspaceId, stream_id: stream.id },
      { maxAttempts: SSF_PUSH_ATTEMPTS },
    );
  }

  pollUrl(streamId: string): string {
    return this.server.url(`/ssf/poll/${streamId}`);
  }

  private view(p: SsfReceiverPrincipal, stream: SsfStream) {
    return toStreamConfig(stream, this.server.issuer, p.clientId, this.pollUrl(stream.id));
  }

  /** The caller's stream if `streamId` names it; 404 for anything else. */
  private own(stream: SsfStream | null, streamId: string): SsfStream {
    if (!stream || !isUuid(streamId) || stream.id !== streamId) throw notFound('stream');
    return stream;
  }

  /** The receiver-supplied members, from the body over `current` (null: replace, the defaults under the body). */
  private async values(dto: SsfStreamConfigDto, current: SsfStream | null): Promise<StreamValues> {
    const method = dto.delivery?.method ?? current?.deliveryMethod ?? POLL;
    let endpointUrl: string | null = null;
    let authorizationEncrypted: string | null = null;
    if (method === PUSH) {
      const keepsEndpoint = !dto.delivery && current?.deliveryMethod === PUSH;
      endpointUrl = keepsEndpoint ? current.endpointUrl : (dto.delivery?.endpoint_url ?? null);
      if (!endpointUrl) throw invalid('delivery.endpoint_url', 'is required for push delivery (urn:ietf:rfc:8935)');
      const reason = keepsEndpoint ? null : await unsafeTargetReason(endpointUrl, this.config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
      if (reason) throw invalid('delivery.endpoint_url', `cannot be used: ${reason}`);
      const header = dto.delivery?.authorization_header;
      authorizationEncrypted = header !== undefined ? this.box.encrypt(header) : keepsEndpoint ? current.authorizationEncrypted : null;
    }
    return {
      deliveryMethod: method === PUSH ? PUSH : POLL,
      endpointUrl,
      authorizationEncrypted,
      eventsRequested: [...new Set(dto.events_requested ?? current?.eventsRequested ?? [])],
      description: dto.description ?? current?.description ?? null,
    };
  }
}

function oneStream(): DomainError {
  return new DomainError(COMMON_ERRORS.conflict, 'this receiver already has its stream (one stream per receiver); update or delete it');
}

function invalid(field: string, problem: string): DomainError {
  return new DomainError(COMMON_ERRORS.validation_failed, `${field} ${problem}`, { details: { [field]: [problem] } });
}

/** An RFC 9493 subject of a format this transmitter matches, its members strings of a sane length. */
export function parseSubject(raw: Record<string, unknown>): SubjectId {
  const text = (name: string): string => {
    const value = raw[name];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_IDENTIFIER) {
      throw invalid(`subject.${name}`, `must be a string of 1 to ${MAX_IDENTIFIER} characters`);
    }
    return value;
  };
  switch (raw.format) {
    case 'email': {
      const email = text('email');
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw invalid('subject.email', 'must be an email address');
      return { format: 'email', email };
    }
    case 'iss_sub':
      return { format: 'iss_sub', iss: text('iss'), sub: text('sub') };
    case 'opaque':
      return { format: 'opaque', id: text('id') };
    default:
      throw invalid('subject.format', 'must be one of email, iss_sub, opaque');
  }
}
