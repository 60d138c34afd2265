import { Injectable } from '@nestjs/common';
import type { CompanySignIn } from '../../hosted-login/company-sign-in';
import { HostedLoginPort } from '../../hosted-login/hosted-login-ports';
import { SsoDomainsRepository } from './sso-domains.repository';

/** The part after the @ that can be a domain name at all (RFC 1035 letters, digits, hyphens, dots). */
const DOMAIN_PART = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

/**
 * The hosted login's routing by email domain (decision 0441): an address at a domain the
 * workspace verified for one of its connections signs in there. Only verified domains route, and
 * only the exact domain (eu.acme.com is not acme.com).
 */
@Injectable()
@HostedLoginPort('company-sign-in')
export class DomainRouting implements CompanySignIn {
  constructor(private readonly domains: SsoDomainsRepository) {}

  async connectionFor(workspaceId: string, email: string): Promise<string | null> {
    const domain = email
      .slice(email.lastIndexOf('@') + 1)
      .trim()
      .toLowerCase();
    if (!email.includes('@') || !DOMAIN_PART.test(domain)) return null;
    return this.domains.verifiedConnection(workspaceId, domain);
  }

  routesAny(workspaceId: string): Promise<boolean> {
    return this.domains.anyVerified(workspaceId);
  }
}
