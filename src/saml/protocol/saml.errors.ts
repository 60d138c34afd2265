import { DomainError } from '../../common/errors';
import { SAML_ERRORS } from '../saml.errors';

/**
 * A refusal from the SAML building blocks, with the status the browser should see.
 * It is a DomainError, so the SSO routes' page surface renders it as an HTML page.
 */
export class SamlError extends DomainError {
  constructor(message: string) {
    super(SAML_ERRORS.saml_request_invalid, message);
    this.name = 'SamlError';
  }
}

/** The inbound AuthnRequest cannot be accepted (malformed, too large, unsafe XML). */
export const badRequest = (message: string) => new SamlError(message);
