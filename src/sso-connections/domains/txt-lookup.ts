import { Inject, Injectable } from '@nestjs/common';
import { promises as dns } from 'node:dns';
import { APP_CONFIG, type AppConfig } from '../../config/config';

/** What a TXT lookup found: the records (each one's strings joined), none, or no answer from DNS. */
export type TxtAnswer = { kind: 'records'; values: string[] } | { kind: 'none' } | { kind: 'failed'; code: string };

/** The name has no TXT record (NXDOMAIN or NODATA): the record is not published (yet). */
const NOT_PUBLISHED: ReadonlySet<string> = new Set([dns.NOTFOUND, dns.NODATA]);
/** A long TXT answer is somebody else's record; a verification record is short. */
const MAX_RECORDS = 20;

/**
 * TXT lookups for domain verification (decision 0440), through SSO_DNS_SERVERS when set (tests
 * point it at a local DNS server), else the system resolver. c-ares waits 2.5 s per try, twice.
 */
@Injectable()
export class TxtLookup {
  private readonly resolver = new dns.Resolver({ timeout: 2500, tries: 2 });

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const servers = (config.SSO_DNS_SERVERS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (servers.length) this.resolver.setServers(servers);
  }

  async txt(name: string): Promise<TxtAnswer> {
    try {
      // A TXT record is one or more character strings of up to 255 bytes each (RFC 1035 §3.3.14); they make one value.
      const records = await this.resolver.resolveTxt(name);
      return { kind: 'records', values: records.slice(0, MAX_RECORDS).map((chunks) => chunks.join('')) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'UNKNOWN';
      return NOT_PUBLISHED.has(code) ? { kind: 'none' } : { kind: 'failed', code };
    }
  }
}
