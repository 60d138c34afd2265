import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../../common/errors';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { buildIdpMetadata } from '../protocol/idp-metadata';
import { withDevelopmentIdp } from './dev-idp';
import { IdpSettings, IdpState, resolveIdpState } from './idp-settings';

/**
 * The IdP's configuration as read once at boot: the key and certificate parsed,
 * the metadata document rendered. A present but broken pair throws here, so the
 * app does not start; an absent one leaves SAML answering 503 in production and is
 * generated under DATA_DIR elsewhere (src/saml/idp/dev-idp.ts).
 */
@Injectable()
export class IdpRuntime {
  readonly state: IdpState;
  /** One line for the boot summary: on or off, and why. */
  readonly summary: string;
  /** True when the signing pair is the generated development one. */
  readonly development: boolean;
  private readonly metadata?: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { env, generated } = withDevelopmentIdp(config);
    this.state = resolveIdpState(env);
    this.development = generated !== undefined;
    if (generated) {
      new Logger('SAML').warn(
        `DEVELOPMENT SAML IdP: ${generated.created ? 'generated' : 'reusing'} a self-signed signing pair in ${generated.keyFile}; ` +
          'set SAML_IDP_ENTITY_ID, SAML_IDP_SSO_URL, SAML_IDP_CERT_PEM and SAML_IDP_KEY_PEM before anyone else relies on it',
      );
    }
    this.summary = !this.state.configured
      ? `off (${config.NODE_ENV === 'production' ? 'production needs' : 'set'} ${this.state.missing.join(', ')})`
      : generated
        ? `on, DEVELOPMENT key pair from ${generated.certFile} (entity ${this.state.settings.entityId})`
        : `on (entity ${this.state.settings.entityId})`;
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
