import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';

/**
 * The authorization server's identity (its issuer, PUBLIC_BASE_URL) and the metadata members a kind
 * of client adds to the discovery document (the OpenID provider: authorization, UserInfo,
 * end-session endpoints, response types, claims), so the core lists them without importing it.
 */
@Injectable()
export class OAuthServerInfo {
  private readonly extra: Record<string, unknown> = {};

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get issuer(): string {
    return this.config.PUBLIC_BASE_URL;
  }

  url(path: string): string {
    return `${this.config.PUBLIC_BASE_URL}${path}`;
  }

  contribute(members: Record<string, unknown>): void {
    Object.assign(this.extra, members);
  }

  contributed(): Readonly<Record<string, unknown>> {
    return this.extra;
  }
}
