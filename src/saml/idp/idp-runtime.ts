import { Logger } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { DomainError } from '../../common/errors';
import { AppConfig } from '../../config/config';
import { buildIdpMetadata } from '../protocol/idp-metadata';
import { DevIdpOutcome, withDevelopmentIdp } from './dev-idp';
import { completeIdpSettings, IdpConfigError, IdpSettings, IdpState, resolveIdpSigning } from './idp-settings';
import { NameIdKeyStore, resolveNameIdKey } from './nameid-key';
import { SAML_ERRORS } from '../saml.errors';

/**
 * The IdP's configuration as read once at boot: the key and certificate parsed, the NameID key
 * resolved, the metadata document rendered. A present but broken pair (or a NameID key that would
 * change the deployment's NameIDs) throws here, so the app does not start; an absent pair leaves
 * SAML answering 503 in production and is generated under DATA_DIR elsewhere (src/saml/idp/dev-idp.ts).
 * Built by an async provider (saml.module.ts), so everything that injects it sees it complete.
 */
export class IdpRuntime {
  /** One line for the boot summary: on or off, and why. */
  readonly summary: string;
  /** True when the signing pair is the generated development one. */
  readonly development: boolean;
  private readonly metadata?: string;

  private constructor(
    readonly state: IdpState,
    config: AppConfig,
    generated: DevIdpOutcome<AppConfig>['generated'],
    nameIdKeyFrom: 'variable' | 'database' | undefined,
  ) {
    this.development = generated !== undefined;
    const logger = new Logger('SAML');
    if (generated) {
      logger.warn(
        `DEVELOPMENT SAML IdP: ${generated.created ? 'generated' : 'reusing'} a self-signed signing pair in ${generated.keyFile}; ` +
          'set SAML_IDP_ENTITY_ID, SAML_IDP_SSO_URL, SAML_IDP_CERT_PEM and SAML_IDP_KEY_PEM before anyone else relies on it',
      );
    }
    const keyNote = nameIdKeyFrom === 'database' ? ', NameID key kept in the database' : '';
    this.summary = !state.configured
      ? `off (${config.NODE_ENV === 'production' ? 'production needs' : 'set'} ${state.missing.join(', ')})`
      : generated
        ? `on, DEVELOPMENT key pair from ${generated.certFile} (entity ${state.settings.entityId}${keyNote})`
        : `on (entity ${state.settings.entityId}${keyNote})`;
    if (state.configured) {
      this.metadata = buildIdpMetadata(state.settings);
      const days = Math.floor((state.settings.certNotAfter.getTime() - Date.now()) / 86_400_000);
      if (days < 30) logger.warn(`the IdP signing certificate expires in ${days} days; publish SAML_IDP_NEXT_CERT_PEM and rotate`);
    } else {
      logger.log(state.message);
    }
  }

  /**
   * Reads the configuration. In production the NameID key is the deployment's (nameid-key.ts):
   * SAML_NAMEID_SECRET checked against the one recorded, or the one generated and kept in the
   * database. Elsewhere SAML_NAMEID_SECRET is always set (generated under DATA_DIR with the other
   * development secrets, src/config/dev-secrets.ts) and used as it is.
   */
  static async create(config: AppConfig, keys: NameIdKeyStore): Promise<IdpRuntime> {
    const { env, generated } = withDevelopmentIdp(config);
    const signing = resolveIdpSigning(env);
    if (!signing.configured) return new IdpRuntime(signing, config, generated, undefined);
    const explicit = config.SAML_NAMEID_SECRET?.trim() || undefined;
    // A short variable is refused before anything about it is recorded.
    if (explicit) completeIdpSettings(signing.signing, explicit);
    let secret = explicit;
    if (config.NODE_ENV === 'production' || !secret) {
      if (!config.SECRETS_ENCRYPTION_KEY) throw new IdpConfigError('SECRETS_ENCRYPTION_KEY is needed to keep the NameID key');
      secret = await resolveNameIdKey(explicit, keys, new SecretBox(config.SECRETS_ENCRYPTION_KEY));
    }
    const settings = completeIdpSettings(signing.signing, secret);
    return new IdpRuntime({ configured: true, settings }, config, generated, explicit ? 'variable' : 'database');
  }

  /** The settings, or 503 not_configured with the names of the missing variables. */
  settings(): IdpSettings {
    if (!this.state.configured) {
      throw new DomainError(SAML_ERRORS.not_configured, this.state.message, { details: { missing: [...this.state.missing] } });
    }
    return this.state.settings;
  }

  metadataXml(): string {
    this.settings();
    return this.metadata!;
  }
}
