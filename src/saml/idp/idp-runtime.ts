import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../../common/errors';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { buildIdpMetadata } from '../protocol/idp-metadata';
import { IdpSettings, IdpState, resolveIdpState } from './idp-settings';

/**
 * The IdP's configuration as read once at boot: the key and certificate parsed,
 * the metadata document rendered. A present but broken pair throws here, so the
 * app does not start; an absent one leaves SAML answering 503.
 */
@Injectable()
export class IdpRuntime {
  readonly state: IdpState;
  private readonly metadata?: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.state = resolveIdpState(config);
    if (this.state.configured) {
      this.metadata = buildIdpMetadata(this.state.settings);
      const days = Math.floor((this.state.settings.certNotAfter.getTime() - Date.now()) / 86_400_000);
      if (days < 30) {
        new Logger('SAML').warn(`the IdP signing certificate expires in ${days} days; publish SAML_IDP_NEXT_CERT_PEM and rotate`);
      }
    } else {
      new Logger('SAML').log(this.state.message);
    }
  }

  /** The settings, or 503 not_configured with the names of the missing variables. */
  settings(): IdpSettings {
    if (!this.state.configured) {
      throw new DomainError('not_configured', this.state.message, { details: { missing: [...this.state.missing] } });
    }
    return this.state.settings;
  }

  metadataXml(): string {
    this.settings();
    return this.metadata!;
  }
}
