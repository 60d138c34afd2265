import { Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import { notFound } from '../../common/common.errors';
import { DomainError } from '../../common/errors';
import type { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { UnitOfWork } from '../../database/unit-of-work';
import type { SsoConnectionDomain } from '../entities/sso-connection-domain.entity';
import { DOMAIN_TXT_PREFIX, DOMAIN_TXT_VALUE_PREFIX, toConnectionView } from '../sso-connection-views';
import { SSO_CONNECTION_ERRORS } from '../sso-connections.errors';
import { SsoConnectionsRepository } from '../sso-connections.repository';
import { SsoConnectionsService } from '../sso-connections.service';
import { DomainClaimed, SsoDomainsRepository } from './sso-domains.repository';
import { TxtLookup } from './txt-lookup';
import { byDeveloper } from '../../events/domain-events';

/** What a refused verification shows of the TXT values found: a few, shortened (they are the domain owner's text). */
const SHOWN_VALUES = 5;
const SHOWN_LENGTH = 120;

/**
 * Proves a workspace holds an email domain of its connection (decision 0440): the developer
 * publishes `_idsvc-verification.<domain>` TXT `idsvc-domain-verification=<token>` and asks for a
 * check; the record found marks the domain verified, once, for one workspace at most. The hosted
 * login routes only verified domains (docs/sso-connections.md, "Domains and routing").
 */
@Injectable()
export class DomainVerificationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly connections: SsoConnectionsService,
    private readonly connectionRows: SsoConnectionsRepository,
    private readonly domains: SsoDomainsRepository,
    private readonly dns: TxtLookup,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Looks the TXT record up and marks the domain verified; the connection as it now is. */
  async verify(p: DeveloperPrincipal, connectionId: string, domainParam: string, request: RequestMeta) {
    const connection = await this.connections.load(null, p, connectionId);
    const domain = domainParam.toLowerCase();
    const row = domain.length <= 253 ? await this.domains.find(null, connection.workspaceId, connection.id, domain) : null;
    if (!row) throw notFound('Domain of this connection');
    if (row.verifiedAt === null) {
      if ((await this.domains.claimedElsewhere(null, connection.workspaceId, [domain])).length) throw claimed(domain);
      await this.lookUp(row);
      await this.uow.run(async (tx, events) => {
        let verified;
        try {
          verified = await this.domains.markVerified(tx, connection.workspaceId, connection.id, domain, this.clock.now());
        } catch (err) {
          if (err instanceof DomainClaimed) throw claimed(domain);
          throw err;
        }
        if (!verified) return;
        events.emit('external_provider_update', {
          ...byDeveloper(p, connection.workspaceId, { type: 'external_provider', id: connection.id }, request),
          metadata: { domain_verified: domain },
        });
      });
    }
    const domains = await this.connectionRows.domains(null, connection.workspaceId, [connection.id]);
    return toConnectionView(this.config.PUBLIC_BASE_URL, connection, domains);
  }

  /** Returns when the record is published; a typed error otherwise (the check is recorded either way). */
  private async lookUp(row: SsoConnectionDomain): Promise<void> {
    const name = `${DOMAIN_TXT_PREFIX}.${row.domain}`;
    const expected = `${DOMAIN_TXT_VALUE_PREFIX}${row.verificationToken}`;
    const answer = await this.dns.txt(name);
    if (answer.kind === 'failed') {
      throw new DomainError(
        SSO_CONNECTION_ERRORS.dns_lookup_failed,
        `The DNS did not answer the TXT lookup of ${name} (${answer.code}); try again`,
      );
    }
    const values = answer.kind === 'records' ? answer.values : [];
    if (values.some((v) => sameText(v.trim(), expected))) return;
    await this.domains.markChecked(row.workspaceId, row.connectionId, row.domain, this.clock.now());
    throw new DomainError(
      SSO_CONNECTION_ERRORS.txt_record_not_found,
      `No TXT record ${expected} at ${name} yet; publish it (DNS changes can take a while to show) and try again`,
      {
        details: {
          txt_record_name: name,
          txt_record_value: expected,
          found: values.slice(0, SHOWN_VALUES).map((v) => v.slice(0, SHOWN_LENGTH)),
        },
      },
    );
  }
}

const claimed = (domain: string) =>
  new DomainError(SSO_CONNECTION_ERRORS.domain_claimed, `${domain} is verified by another workspace`, {
    details: { domain: ['verified by another workspace'] },
  });

function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}
