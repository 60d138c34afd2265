import { DomainError } from '../../common/errors';

/**
 * A refusal from the SAML building blocks, with the status the browser should see.
 * It is a DomainError, so the global filter renders it (an HTML page on /saml/sso).
 */
export class SamlError extends DomainError {
  constructor(code: string, message: string, status = 400) {
    super(code, message, { status });
    this.name = 'SamlError';
  }
}

/** The inbound AuthnRequest cannot be accepted (malformed, too large, unsafe XML). */
export const badRequest = (message: string) => new SamlError('saml_request_invalid', message, 400);
