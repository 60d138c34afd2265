import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, Raw, Repository } from 'typeorm';
import { sha256Hex } from '../../common/crypto/tokens';
import { NO_ROW } from '../../database/row-shape';
import { RowShapeError } from '../../database/rows';
import { first, run, statement } from '../../database/statement';
import { AuthnRequestInfo } from '../protocol/authn-request.parser';
import { COMPARISONS, Comparison } from '../protocol/authn-context';
import { SamlServiceProvider } from '../sps/entities/saml-service-provider.entity';
import { SP, SP_SELECT } from '../sps/saml-sps.repository';
import { SamlPendingRequest } from './entities/saml-pending-request.entity';

const SP_BY_ENTITY_ID = statement(
  'sso-requests.sp-by-entity-id',
  `SELECT ${SP_SELECT} FROM saml_service_providers s WHERE s.sp_entity_id = $1`,
  SP,
);
const SP_BY_ID = statement(
  'sso-requests.sp-by-id',
  `SELECT ${SP_SELECT} FROM saml_service_providers s WHERE s.workspace_id = $2 AND s.id = $1`,
  SP,
);
/** Keeps the client address's newest `$2` parked requests. */
const KEEP_NEWEST_PER_CLIENT = statement(
  'sso-requests.keep-newest-per-client',
  `DELETE FROM saml_pending_requests WHERE id IN (
         SELECT id FROM saml_pending_requests WHERE client_ip = $1 ORDER BY created_at DESC, id DESC OFFSET $2)`,
  NO_ROW,
);

/** An AuthnRequest parked while the browser signs in; the ticket lives in a cookie. */
export interface PendingRequest {
  id: string;
  workspaceId: string;
  serviceProviderId: string;
  request: AuthnRequestInfo;
  relayState: string | null;
  createdAt: Date;
}

/** Long enough to type a password (and read a verification email), short enough to be useless when stolen. */
export const PENDING_TTL_SECONDS = 15 * 60;

/**
 * The reads and writes of SP-initiated SSO: the SP as prepared statements, one round trip each (the signed-in
 * user's profile comes with the browser session), and the requests parked during sign-in.
 */
@Injectable()
export class SsoRequestsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(SamlPendingRequest) private readonly pending: Repository<SamlPendingRequest>,
  ) {}

  /** Issuer lookup: an exact match on sp_entity_id (spec), across all workspaces. */
  async findSpByEntityId(entityId: string): Promise<SamlServiceProvider | null> {
    return (await first(this.dataSource, SP_BY_ENTITY_ID, [entityId])) ?? null;
  }

  async findSp(workspaceId: string, id: string): Promise<SamlServiceProvider | null> {
    return (await first(this.dataSource, SP_BY_ID, [id, workspaceId])) ?? null;
  }

  /**
   * Stores the request and returns the ticket (only its hash is kept). The client address keeps
   * its newest `maxPerClient` parked requests; older ones are dropped (their tickets then find nothing).
   */
  async stash(
    sp: SamlServiceProvider,
    request: AuthnRequestInfo,
    relayState: string | null,
    clientIp: string,
    maxPerClient: number,
  ): Promise<string> {
    const ticket = randomBytes(32).toString('base64url');
    await this.pending.insert({
      workspaceId: sp.workspaceId,
      serviceProviderId: sp.id,
      ticketHash: sha256Hex(ticket),
      request: { ...request },
      relayState,
      clientIp,
      expiresAt: () => `now() + make_interval(secs => ${PENDING_TTL_SECONDS})`,
    });
    await run(this.dataSource, KEEP_NEWEST_PER_CLIENT, [clientIp, maxPerClient]);
    // Opportunistic sweep keeps the table small without a scheduler.
    if (Math.random() < 0.01) await this.pending.delete({ expiresAt: Raw((column) => `${column} < now()`) }).catch(() => undefined);
    return ticket;
  }

  async find(ticket: string): Promise<PendingRequest | null> {
    const row = await this.pending.findOneBy({ ticketHash: sha256Hex(ticket), expiresAt: Raw((column) => `${column} > now()`) });
    return row
      ? {
          id: row.id,
          workspaceId: row.workspaceId,
          serviceProviderId: row.serviceProviderId,
          request: storedAuthnRequest(row.request),
          relayState: row.relayState,
          createdAt: row.createdAt,
        }
      : null;
  }

  /** Single use: the first finish consumes it; a replayed ticket finds nothing. */
  async consume(id: string): Promise<boolean> {
    const { affected } = await this.pending.delete({ id });
    return (affected ?? 0) > 0;
  }
}

/** The parked AuthnRequest, as stash() stored it (saml_pending_requests.request). */
function storedAuthnRequest(stored: Record<string, unknown>): AuthnRequestInfo {
  const policy = optionalObject(stored, 'nameIdPolicy');
  const subject = optionalObject(stored, 'subject');
  const context = optionalObject(stored, 'requestedAuthnContext');
  return {
    id: member(stored, 'id', 'string'),
    issuer: member(stored, 'issuer', 'string'),
    issueInstant: member(stored, 'issueInstant', 'string'),
    destination: optionalMember(stored, 'destination', 'string'),
    acsUrl: optionalMember(stored, 'acsUrl', 'string'),
    acsIndex: optionalMember(stored, 'acsIndex', 'number'),
    protocolBinding: optionalMember(stored, 'protocolBinding', 'string'),
    forceAuthn: member(stored, 'forceAuthn', 'boolean'),
    isPassive: member(stored, 'isPassive', 'boolean'),
    nameIdPolicy: policy
      ? {
          format: optionalMember(policy, 'format', 'string'),
          allowCreate: optionalMember(policy, 'allowCreate', 'boolean'),
          spNameQualifier: optionalMember(policy, 'spNameQualifier', 'string'),
        }
      : undefined,
    subject: subject
      ? { nameId: optionalMember(subject, 'nameId', 'string'), format: optionalMember(subject, 'format', 'string') }
      : undefined,
    requestedAuthnContext: context
      ? {
          comparison: comparison(member(context, 'comparison', 'string')),
          classRefs: stringList(context, 'classRefs'),
          declRefs: stringList(context, 'declRefs'),
        }
      : undefined,
  };
}

function optionalObject(object: Record<string, unknown>, key: string): object | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') throw new RowShapeError(`request.${key}`, 'object', value);
  return value;
}

function stringList(object: object, key: string): string[] {
  const value: unknown = (object as Record<string, unknown>)[key];
  if (!Array.isArray(value)) throw new RowShapeError(`request.${key}`, 'string[]', value);
  return value.map((item) => {
    if (typeof item !== 'string') throw new RowShapeError(`request.${key}[]`, 'string', item);
    return item;
  });
}

function comparison(value: string): Comparison {
  const found = COMPARISONS.find((c) => c === value);
  if (!found) throw new RowShapeError('request.requestedAuthnContext.comparison', COMPARISONS.join('|'), value);
  return found;
}

interface JsonTypes {
  string: string;
  number: number;
  boolean: boolean;
}

function member<K extends keyof JsonTypes>(object: object, key: string, type: K): JsonTypes[K] {
  const value = optionalMember(object, key, type);
  if (value === undefined) throw new RowShapeError(`request.${key}`, type, null);
  return value;
}

function optionalMember<K extends keyof JsonTypes>(object: object, key: string, type: K): JsonTypes[K] | undefined {
  const value: unknown = (object as Record<string, unknown>)[key];
  if (value === undefined || value === null) return undefined;
  if (!isOfType(value, type)) throw new RowShapeError(`request.${key}`, type, value);
  return value;
}

function isOfType<K extends keyof JsonTypes>(value: unknown, type: K): value is JsonTypes[K] {
  return typeof value === type;
}
