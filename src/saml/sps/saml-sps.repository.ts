import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isUniqueViolation } from '../../common/db-errors';
import { DomainError } from '../../common/errors';
import { entityColumns } from '../../database/row-shape';
import { QueryRow, RowShapeError } from '../../database/rows';
import type { Tx } from '../../database/unit-of-work';
import { notifyCredentialRevoked, type RevocationNotice } from '../../common/auth/credential-cache';
import { SamlServiceProvider } from './entities/saml-service-provider.entity';
import { SAML_ERRORS } from '../saml.errors';
import { inCreationOrder } from '../../database/workspace-row';

/** What a developer sets on a registration (everything but identity, tenancy and timestamps). */
export type SpFields = Pick<
  SamlServiceProvider,
  | 'name'
  | 'spEntityId'
  | 'acsUrl'
  | 'nameIdFormat'
  | 'nameIdAttribute'
  | 'signAssertions'
  | 'attributeMapping'
  | 'spCertPem'
  | 'defaultRelayState'
  | 'isActive'
>;

/** The columns of an SP as SQL text selects them (alias s), for statements that join it to something else. */
export const SP_SELECT = [
  'id',
  'workspace_id',
  'name',
  'sp_entity_id',
  'acs_url',
  'name_id_format',
  'name_id_attribute',
  'sign_assertions',
  'attribute_mapping',
  'sp_cert_pem',
  'default_relay_state',
  'is_active',
  'created_at',
  'updated_at',
]
  .map((c) => `s.${c}`)
  .join(', ');

/** An SP from a row selected with SP_SELECT (or RETURNING *). */
export const SP = entityColumns(
  SamlServiceProvider,
  [
    'id',
    'workspaceId',
    'name',
    'spEntityId',
    'acsUrl',
    'nameIdFormat',
    'nameIdAttribute',
    'signAssertions',
    'attributeMapping',
    'spCertPem',
    'defaultRelayState',
    'isActive',
    'createdAt',
    'updatedAt',
  ],
  { refine: { attributeMapping: stringMap } },
);

/** attribute_mapping: a jsonb object of SAML attribute name -> user field path. */
function stringMap(value: unknown, column: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RowShapeError(column, 'json object', value);
  const map: Record<string, string> = {};
  for (const [key, path] of Object.entries(value)) {
    if (typeof path !== 'string') throw new RowShapeError(column, 'object of strings', value);
    map[key] = path;
  }
  return map;
}

/**
 * The tag of an SP's entry in the credential cache, where SSO keeps the registration it read (decision 1025):
 * notified when the SP changes or goes, so no instance serves the registration as it was.
 */
export const spRegistrationTag = (id: string): string => `saml-sp:${id}`;

/** The SP registry's table. SP-initiated SSO reads it through SsoRequestsRepository. */
@Injectable()
export class SamlSpsRepository {
  constructor(@InjectRepository(SamlServiceProvider) private readonly sps: Repository<SamlServiceProvider>) {}

  list(workspaceId: string): Promise<SamlServiceProvider[]> {
    return inCreationOrder(this.sps, workspaceId);
  }

  /**
   * The SP when the developer is a member of its workspace, else null: one query, so a registration
   * in another tenant is indistinguishable from none. `lock`: FOR UPDATE of the SP row, inside `tx`.
   */
  findForMember(developerId: string, id: string, tx?: Tx, lock = false): Promise<SamlServiceProvider | null> {
    const query = (tx ?? this.sps.manager)
      .getRepository(SamlServiceProvider)
      .createQueryBuilder('s')
      .innerJoin('workspace_members', 'm', 'm.workspace_id = s.workspace_id AND m.developer_id = :developerId', { developerId })
      .where('s.id = :id', { id });
    if (lock) query.setLock('pessimistic_write', undefined, ['s']);
    return query.getOne();
  }

  async insert(tx: Tx, workspaceId: string, fields: SpFields): Promise<SamlServiceProvider> {
    const repository = tx.getRepository(SamlServiceProvider);
    const sp = repository.create({ ...fields, workspaceId });
    // INSERT ... RETURNING the generated id and defaulted timestamps, merged into `sp`.
    await entityIdUnique(repository.insert(sp), fields.spEntityId);
    return sp;
  }

  /** Replaces every field and bumps updated_at; the row as it now is. */
  async update(tx: Tx, workspaceId: string, id: string, fields: SpFields): Promise<SamlServiceProvider | null> {
    const result = await entityIdUnique(
      tx
        .createQueryBuilder()
        .update(SamlServiceProvider)
        .set({ ...fields, updatedAt: () => 'now()' })
        .where('workspace_id = :workspaceId AND id = :id', { workspaceId, id })
        .returning('*')
        .execute(),
      fields.spEntityId,
    );
    const [row] = returnedRows(result.raw);
    return row ? SP.reader(tx.dataSource)(row) : null;
  }

  async delete(tx: Tx, workspaceId: string, id: string): Promise<void> {
    await tx.getRepository(SamlServiceProvider).delete({ workspaceId, id });
  }

  /** In the changing transaction: every instance drops its cached copy of the SP at commit (spRegistrationTag). */
  notifyChanged(tx: Tx, id: string): Promise<RevocationNotice> {
    return notifyCredentialRevoked(tx, spRegistrationTag(id));
  }
}

/** The rows of an UPDATE ... RETURNING, as node-postgres parsed them. */
function returnedRows(raw: unknown): QueryRow[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((row): row is QueryRow => typeof row === 'object' && row !== null);
}

/** The unique index is the arbiter (two concurrent creates): its violation becomes 409. */
async function entityIdUnique<T>(write: Promise<T>, entityId: string): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new DomainError(SAML_ERRORS.sp_entity_id_taken, `A service provider with sp_entity_id ${entityId} is already registered`);
    }
    throw err;
  }
}
