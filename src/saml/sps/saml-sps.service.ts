import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { DomainError, notFound } from '../../common/errors';
import { isUuid } from '../../common/ids';
import { RequestMeta } from '../../common/request-context';
import { AuditEventType } from '../../events/audit-catalog';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import { NAME_ID_FORMAT } from '../protocol/saml-urns';
import { CreateSamlSpDto, UpdateSamlSpDto } from './dto/saml-sp.dto';
import { importSpMetadata } from './sp-metadata-import';
import { checkAcsUrl, checkAttributeMapping, checkCertificate, checkNameId, checkRelayState, invalid } from './sp-rules';
import { SamlSpRow, SP_COLUMNS, toSpView } from './saml-sp.row';
import { isUniqueViolation } from '../../common/db-errors';

type Fields = Omit<SamlSpRow, 'id' | 'workspace_id' | 'created_at' | 'updated_at'>;

/** The SP registry. Every call checks the developer's membership of the SP's workspace. */
@Injectable()
export class SamlSpsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly workspaces: WorkspacesService,
    private readonly audit: AuditService,
  ) {}

  async create(p: DeveloperPrincipal, dto: CreateSamlSpDto, request: RequestMeta) {
    const fields = resolveFields(dto, undefined);
    return this.dataSource.transaction(async (manager) => {
      await this.workspaces.assertMember(p.developerId, dto.workspace_id, manager);
      const [row] = (await uniqueEntityId(
        manager.query(
          `INSERT INTO saml_service_providers (workspace_id, name, sp_entity_id, acs_url, name_id_format, name_id_attribute,
             sign_assertions, attribute_mapping, sp_cert_pem, default_relay_state, is_active)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${SP_COLUMNS}`,
          [dto.workspace_id, ...fieldValues(fields)],
        ),
        fields.sp_entity_id,
      )) as SamlSpRow[];
      await this.record(manager, 'saml_sp_create', p, row, request);
      return toSpView(row);
    });
  }

  async list(p: DeveloperPrincipal, workspaceId: string) {
    await this.workspaces.assertMember(p.developerId, workspaceId);
    const rows = (await this.dataSource.query(
      `SELECT ${SP_COLUMNS} FROM saml_service_providers WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    )) as SamlSpRow[];
    return rows.map(toSpView);
  }

  async get(p: DeveloperPrincipal, id: string) {
    return toSpView(await this.load(this.dataSource.manager, p, id));
  }

  /** PUT is a partial update (spec): absent fields keep their value. */
  async update(p: DeveloperPrincipal, id: string, dto: UpdateSamlSpDto, request: RequestMeta) {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.load(manager, p, id, true);
      if (dto.workspace_id !== undefined && dto.workspace_id !== current.workspace_id) {
        throw invalid('workspace_id', 'a service provider cannot move to another workspace');
      }
      const fields = resolveFields(dto, current);
      const [rows] = (await uniqueEntityId(
        manager.query(
          `UPDATE saml_service_providers SET name = $2, sp_entity_id = $3, acs_url = $4, name_id_format = $5, name_id_attribute = $6,
             sign_assertions = $7, attribute_mapping = $8, sp_cert_pem = $9, default_relay_state = $10, is_active = $11, updated_at = now()
           WHERE id = $1 RETURNING ${SP_COLUMNS}`,
          [id, ...fieldValues(fields)],
        ),
        fields.sp_entity_id,
      )) as [SamlSpRow[], number];
      const changed = Object.keys(dto).filter((k) => k !== 'workspace_id');
      await this.record(manager, 'saml_sp_update', p, rows[0], request, { fields: changed });
      return toSpView(rows[0]);
    });
  }

  async remove(p: DeveloperPrincipal, id: string, request: RequestMeta): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await this.load(manager, p, id, true);
      await manager.query(`DELETE FROM saml_service_providers WHERE id = $1`, [id]);
      await this.record(manager, 'saml_sp_delete', p, row, request);
    });
  }

  /** The SP, if the developer is a member of its workspace; 404 otherwise (never 403 across tenants). */
  private async load(manager: EntityManager, p: DeveloperPrincipal, id: string, forUpdate = false): Promise<SamlSpRow> {
    if (!isUuid(id)) throw notFound('SAML service provider');
    const [row] = (await manager.query(
      `SELECT ${SP_COLUMNS.split(', ')
        .map((c) => `s.${c}`)
        .join(', ')} FROM saml_service_providers s
         JOIN workspace_members m ON m.workspace_id = s.workspace_id AND m.developer_id = $2
        WHERE s.id = $1 ${forUpdate ? 'FOR UPDATE OF s' : ''}`,
      [id, p.developerId],
    )) as SamlSpRow[];
    if (!row) throw notFound('SAML service provider');
    return row;
  }

  private record(
    manager: EntityManager,
    eventType: AuditEventType,
    p: DeveloperPrincipal,
    row: SamlSpRow,
    request: RequestMeta,
    metadata?: Record<string, unknown>,
  ) {
    return this.audit.record(manager, {
      eventType,
      workspaceId: row.workspace_id,
      request,
      actor: { type: 'developer', id: p.developerId, email: p.email },
      target: { type: 'SamlServiceProvider', id: row.id },
      metadata: { name: row.name, sp_entity_id: row.sp_entity_id, ...metadata },
    });
  }
}

/**
 * Merges, in rising precedence: the current row (update) or defaults (create),
 * values read from metadata_xml, and explicit fields; then checks the result.
 */
function resolveFields(dto: CreateSamlSpDto | UpdateSamlSpDto, current: SamlSpRow | undefined): Fields {
  const imported = dto.metadata_xml ? importSpMetadata(dto.metadata_xml) : {};
  const pick = <K extends keyof Fields>(key: K, fallback: Fields[K]): Fields[K] => {
    const explicit = (dto as Record<string, unknown>)[key];
    if (explicit !== undefined) return explicit as Fields[K];
    const fromMetadata = (imported as Record<string, unknown>)[key];
    if (fromMetadata !== undefined) return fromMetadata as Fields[K];
    return current ? current[key] : fallback;
  };
  const spEntityId = pick('sp_entity_id', '');
  if (!spEntityId) throw invalid('sp_entity_id', 'sp_entity_id is required (or metadata_xml that names it)');
  const acsUrl = pick('acs_url', '');
  if (!acsUrl) throw invalid('acs_url', 'acs_url is required (or metadata_xml with an HTTP-POST AssertionConsumerService)');
  const fields: Fields = {
    name: pick('name', spEntityId),
    sp_entity_id: spEntityId,
    acs_url: checkAcsUrl(acsUrl),
    name_id_format: pick('name_id_format', NAME_ID_FORMAT.email),
    name_id_attribute: pick('name_id_attribute', 'email'),
    sign_assertions: pick('sign_assertions', true),
    attribute_mapping: checkAttributeMapping(pick('attribute_mapping', {})),
    sp_cert_pem: checkCertificate(pick('sp_cert_pem', null)),
    default_relay_state: checkRelayState(pick('default_relay_state', null)),
    is_active: pick('is_active', true),
  };
  checkNameId(fields.name_id_format, fields.name_id_attribute);
  return fields;
}

function fieldValues(f: Fields): unknown[] {
  return [
    f.name,
    f.sp_entity_id,
    f.acs_url,
    f.name_id_format,
    f.name_id_attribute,
    f.sign_assertions,
    JSON.stringify(f.attribute_mapping),
    f.sp_cert_pem,
    f.default_relay_state,
    f.is_active,
  ];
}

/** The unique index is the arbiter (two concurrent creates): its violation becomes 409. */
async function uniqueEntityId<T>(query: Promise<T>, entityId: string): Promise<T> {
  try {
    return await query;
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw new DomainError('sp_entity_id_taken', `A service provider with sp_entity_id ${entityId} is already registered`);
    }
    throw err;
  }
}
