import { notFound } from '../../common/common.errors';
import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { Clock } from '../../common/clock';

import { isUuid } from '../../common/ids';
import { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { IdpRuntime } from '../idp/idp-runtime';
import { BINDING, NS } from '../protocol/saml-urns';
import { escapeXml } from '../protocol/xml-text';
import { SamlSpView } from '../sps/saml-sp.view';
import { SamlSpsService } from '../sps/saml-sps.service';
import type { WorkspaceScope } from '../../workspaces/workspace-scoped';
import { AssertionReport, inspectSamlResponse } from './inspect-response';

export const TEST_SP_PATH = '/saml/test-sp';

export interface TestSpRegistration {
  created: boolean;
  sp: SamlSpView;
  start_url: string;
}

/**
 * A service provider built into the service for development (what "test SSO" gives in hosted
 * identity products): it registers itself in a workspace through the ordinary SP registry, starts
 * SP-initiated SSO with a real AuthnRequest, and checks the Response the IdP posts back. Every
 * entry point answers 404 in production.
 */
@Injectable()
export class TestSpService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly idp: IdpRuntime,
    private readonly sps: SamlSpsService,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.config.NODE_ENV !== 'production';
  }

  assertEnabled(): void {
    if (!this.enabled) throw notFound('Test service provider (development only)');
  }

  entityId(workspaceId: string): string {
    return `${this.config.PUBLIC_BASE_URL}${TEST_SP_PATH}/${workspaceId}`;
  }

  get acsUrl(): string {
    return `${this.config.PUBLIC_BASE_URL}${TEST_SP_PATH}/acs`;
  }

  startUrl(workspaceId: string): string {
    return `${this.config.PUBLIC_BASE_URL}${TEST_SP_PATH}/start?workspace_id=${workspaceId}`;
  }

  /** Registers the test SP in the workspace (once; a second call returns the same SP). */
  async register(scope: WorkspaceScope, meta: RequestMeta): Promise<TestSpRegistration> {
    this.assertEnabled();
    const { workspaceId } = scope;
    const entityId = this.entityId(workspaceId);
    const existing = (await this.sps.list(scope)).find((sp) => sp.sp_entity_id === entityId);
    if (existing) return { created: false, sp: existing, start_url: this.startUrl(workspaceId) };
    const sp = await this.sps.create(
      scope,
      {
        workspace_id: workspaceId,
        name: 'Test SP (development)',
        sp_entity_id: entityId,
        acs_url: this.acsUrl,
        attribute_mapping: { email: 'email', firstName: 'first_name', lastName: 'last_name', displayName: 'display_name', uid: 'id' },
      },
      meta,
    );
    return { created: true, sp, start_url: this.startUrl(workspaceId) };
  }

  /** An AuthnRequest from the workspace's test SP, as the HTTP-Redirect binding sends it. */
  start(workspaceId: unknown): { location: string; requestId: string } {
    this.assertEnabled();
    if (typeof workspaceId !== 'string' || !isUuid(workspaceId)) throw notFound('Workspace');
    const settings = this.idp.settings();
    const requestId = `_${randomBytes(16).toString('hex')}`;
    const xml =
      `<samlp:AuthnRequest xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${requestId}" Version="2.0" ` +
      `IssueInstant="${this.clock.now().toISOString()}" Destination="${escapeXml(settings.ssoUrl)}" ` +
      `AssertionConsumerServiceURL="${escapeXml(this.acsUrl)}" ProtocolBinding="${BINDING.post}">` +
      `<saml:Issuer>${escapeXml(this.entityId(workspaceId))}</saml:Issuer></samlp:AuthnRequest>`;
    const query = new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(xml)).toString('base64'), RelayState: workspaceId });
    return { location: `${settings.ssoUrl}?${query.toString()}`, requestId };
  }

  /** Checks a posted SAMLResponse; the RelayState names the workspace whose test SP asked. */
  inspect(
    samlResponse: unknown,
    relayState: unknown,
    sentRequestId: string | undefined,
  ): { report: AssertionReport; workspaceId?: string } {
    this.assertEnabled();
    const settings = this.idp.settings();
    const workspaceId = typeof relayState === 'string' && isUuid(relayState) ? relayState : undefined;
    const report = inspectSamlResponse(typeof samlResponse === 'string' ? samlResponse : '', {
      idpCertPem: settings.certPem,
      idpEntityId: settings.entityId,
      acsUrl: this.acsUrl,
      audience: workspaceId ? this.entityId(workspaceId) : '(no RelayState: unknown test SP)',
      inResponseTo: sentRequestId,
      now: this.clock.now(),
    });
    return { report, workspaceId };
  }
}
