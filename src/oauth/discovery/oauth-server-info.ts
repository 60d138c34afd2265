import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';

/** The authorization server's identity: its issuer (PUBLIC_BASE_URL) and the URLs under it. */
@Injectable()
export class OAuthServerInfo {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get issuer(): string {
    return this.config.PUBLIC_BASE_URL;
  }

  url(path: string): string {
    return `${this.config.PUBLIC_BASE_URL}${path}`;
  }
}
