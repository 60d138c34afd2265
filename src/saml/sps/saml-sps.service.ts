import { notFound } from '../../common/common.errors';
import { Injectable } from '@nestjs/common';
import { CredentialCache } from '../../common/auth/credential-cache';
import type { DeveloperPrincipal } from '../../common/auth/principal';

import { isUuid } from '../../common/ids';
import { RequestMeta } from '../../common/request-context';
import { EmittedEvents, Tx, UnitOfWork } from '../../database/unit-of-work';
import type { AuditFacts } from '../../events/domain-events';
import type { WorkspaceScope } from '../../workspaces/workspace-scoped';
import { NAME_ID_FORMAT } from '../protocol/saml-urns';
import { CreateSamlSpDto, UpdateSamlSpDto } from './dto/saml-sp.dto';
import { SamlServiceProvider } from './entities/saml-service-provider.entity';
import { SamlSpView, toSpView } from './saml-sp.view';
import { SamlSpsRepository, SpFields } from './saml-sps.repository';
import { importSpMetadata, ImportedSpMetadata } from './sp-metadata-import';
import { checkAcsUrl, checkAttributeMapping, checkCertificate, checkNameId, checkRelayState, invalid } from './sp-rules';

const spNotFound = () => notFound('SAML service provider');
/** Formats whose value the IdP generates: registered with name_id_attribute "id", which is the default for them. */
const GENERATED_FORMATS: readonly string[] = [NAME_ID_FORMAT.persistent, NAME_ID_FORMAT.transient];

/** The SP registry. Every call is for a member of the SP's workspace: the guard checks a named workspace, the repository an SP's. */
@Injectable()
export class SamlSpsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly sps: SamlSpsRepository,
    private readonly cache: CredentialCache,
  ) {}

  async create({ workspaceId, developer: p }: WorkspaceScope, dto: CreateSamlSpDto, request: RequestMeta): Promise<SamlSpView> {
    const fields = resolveFields(dto, undefined);
    return this.uow.run(async (tx, events) => {
      const sp = await this.sps.insert(tx, workspaceId, fields);
      events.emit('saml_sp_create', spEvent(p, sp, request));
      return toSpView(sp);
    });
  }

  async list({ workspaceId }: WorkspaceScope): Promise<SamlSpView[]> {
    return (await this.sps.list(workspaceId)).map(toSpView);
  }

  /** The SP, if the developer is a member of its workspace; 404 otherwise (never 403 across tenants). */
  async get(p: DeveloperPrincipal, id: string): Promise<SamlSpView> {
    if (!isUuid(id)) throw spNotFound();
    const sp = await this.sps.findForMember(p.developerId, id);
    if (!sp) throw spNotFound();
    return toSpView(sp);
  }

  /** PUT is a partial update (spec): absent fields keep their value. */
  async update(p: DeveloperPrincipal, id: string, dto: UpdateSamlSpDto, request: RequestMeta): Promise<SamlSpView> {
    if (!isUuid(id)) throw spNotFound();
    return this.uow.run(async (tx, events) => {
      const current = await this.sps.findForMember(p.developerId, id, tx, true);
      if (!current) throw spNotFound();
      if (dto.workspace_id !== undefined && dto.workspace_id !== current.workspaceId) {
        throw invalid('workspace_id', 'a service provider cannot move to another workspace');
      }
      const fields = resolveFields(dto, current);
      const sp = await this.sps.update(tx, current.workspaceId, id, fields);
      if (!sp) throw spNotFound();
      await this.forgetEverywhere(tx, events, id);
      const changed = Object.keys(dto).filter((k) => k !== 'workspace_id');
      events.emit('saml_sp_update', spEvent(p, sp, request, { fields: changed }));
      return toSpView(sp);
    });
  }

  async remove(p: DeveloperPrincipal, id: string, request: RequestMeta): Promise<void> {
    if (!isUuid(id)) throw spNotFound();
    await this.uow.run(async (tx, events) => {
      const sp = await this.sps.findForMember(p.developerId, id, tx, true);
      if (!sp) throw spNotFound();
      await this.sps.delete(tx, sp.workspaceId, id);
      await this.forgetEverywhere(tx, events, id);
      events.emit('saml_sp_delete', spEvent(p, sp, request));
    });
  }

  /**
   * SSO reads registrations through the credential cache (decision 1025): the change is answered only once every
   * instance has dropped the SP as it was, so the next SSO anywhere sees the new ACS URL, state or mapping.
   */
  private async forgetEverywhere(tx: Tx, events: EmittedEvents, id: string): Promise<void> {
    const notice = await this.sps.notifyChanged(tx, id);
    events.afterCommit('drop the changed SAML SP from every instance’s cache', () => this.cache.evictEverywhere(notice));
  }
}

function spEvent(p: DeveloperPrincipal, sp: SamlServiceProvider, request: RequestMeta, metadata?: Record<string, unknown>): AuditFacts {
  return {
    workspaceId: sp.workspaceId,
    request,
    actor: { type: 'developer', id: p.developerId, email: p.email },
    target: { type: 'SamlServiceProvider', id: sp.id },
    metadata: { name: sp.name, sp_entity_id: sp.spEntityId, ...metadata },
  };
}

/** Each field as the API (DTO, imported metadata) names it. */
const WIRE_NAMES = {
  name: 'name',
  spEntityId: 'sp_entity_id',
  acsUrl: 'acs_url',
  nameIdFormat: 'name_id_format',
  nameIdAttribute: 'name_id_attribute',
  signAssertions: 'sign_assertions',
  attributeMapping: 'attribute_mapping',
  spCertPem: 'sp_cert_pem',
  defaultRelayState: 'default_relay_state',
  isActive: 'is_active',
} as const satisfies Record<keyof SpFields, keyof CreateSamlSpDto & keyof UpdateSamlSpDto>;

/**
 * Merges, in rising precedence: the current row (update) or defaults (create),
 * values read from metadata_xml, and explicit fields; then checks the result.
 */
function resolveFields(dto: CreateSamlSpDto | UpdateSamlSpDto, current: SamlServiceProvider | undefined): SpFields {
  const imported: ImportedSpMetadata = dto.metadata_xml ? importSpMetadata(dto.metadata_xml) : {};
  const pick = <K extends keyof SpFields>(key: K, fallback: SpFields[K]): SpFields[K] => {
    const wire = WIRE_NAMES[key];
    const explicit = (dto as Record<string, unknown>)[wire];
    if (explicit !== undefined) return explicit as SpFields[K];
    const fromMetadata = (imported as Record<string, unknown>)[wire];
    if (fromMetadata !== undefined) return fromMetadata as SpFields[K];
    return current ? current[key] : fallback;
  };
  const spEntityId = pick('spEntityId', '');
  if (!spEntityId) throw invalid('sp_entity_id', 'sp_entity_id is required (or metadata_xml that names it)');
  const acsUrl = pick('acsUrl', '');
  if (!acsUrl) throw invalid('acs_url', 'acs_url is required (or metadata_xml with an HTTP-POST AssertionConsumerService)');
  const nameIdFormat = pick('nameIdFormat', NAME_ID_FORMAT.email);
  const fields: SpFields = {
    name: pick('name', spEntityId),
    spEntityId,
    acsUrl: checkAcsUrl(acsUrl),
    nameIdFormat,
    nameIdAttribute:
      dto.name_id_attribute === undefined && GENERATED_FORMATS.includes(nameIdFormat) ? 'id' : pick('nameIdAttribute', 'email'),
    signAssertions: pick('signAssertions', true),
    attributeMapping: checkAttributeMapping(pick('attributeMapping', {})),
    spCertPem: checkCertificate(pick('spCertPem', null)),
    defaultRelayState: checkRelayState(pick('defaultRelayState', null)),
    isActive: pick('isActive', true),
  };
  checkNameId(fields.nameIdFormat, fields.nameIdAttribute);
  return fields;
}
