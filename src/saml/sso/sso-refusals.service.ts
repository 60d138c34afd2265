import { Injectable, Logger } from '@nestjs/common';
import type { RequestMeta } from '../../common/request-context';
import { DomainEventBus } from '../../events/domain-event-bus';
import { capText, cappedMetadata } from './audit-text';
import type { SsoFailure } from './sso-outcome';
import { unattributedFailures } from './sso.metrics';

/**
 * Records SSO refusals, and only that. A refusal once the SP is known is the domain event
 * saml_sso_failure in the SP's workspace (its audit row is written in the same transaction);
 * a refusal with no SP (unknown Issuer, unreadable request) belongs to no workspace: counted in
 * /metrics and logged once instead, so anonymous callers cannot fill the audit table (decision 0206).
 */
@Injectable()
export class SsoRefusals {
  private readonly logger = new Logger('SamlSso');

  constructor(private readonly bus: DomainEventBus) {}

  async record(failure: SsoFailure, meta: RequestMeta): Promise<void> {
    const { sp, reason, message } = failure;
    if (!sp) {
      unattributedFailures.inc({ reason });
      this.logger.warn(
        `SSO refused before any service provider was identified: ${reason} (request ${meta.requestId}, ip ${meta.ip}): ${capText(message)}`,
      );
      return;
    }
    await this.bus.publish('saml_sso_failure', {
      workspaceId: sp.workspaceId,
      // The User-Agent is the caller's text too: the same cap as the metadata.
      request: { ...meta, userAgent: capText(meta.userAgent) },
      message,
      actor: failure.actor ?? { type: 'anonymous', id: null },
      target: { type: 'SamlServiceProvider', id: sp.id },
      metadata: cappedMetadata({ reason, sp_entity_id: sp.spEntityId, ...failure.metadata }),
    });
  }
}
