import { IdentityProvider, ServiceProvider } from 'samlify';
import type { SamlConnectionSettings, SpEndpoints } from './saml-connection-settings';

const BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Our service provider for one connection, as samlify describes it. */
function serviceProvider(sp: SpEndpoints) {
  return ServiceProvider({
    entityID: sp.entityId,
    assertionConsumerService: [{ Binding: BINDING_POST, Location: sp.acsUrl }],
    nameIDFormat: [NAMEID_PERSISTENT, NAMEID_EMAIL],
    authnRequestsSigned: false,
    wantAssertionsSigned: true,
  });
}

/** The SP metadata the developer gives their IdP (entity id, ACS, signed assertions wanted). */
export function spMetadataXml(sp: SpEndpoints): string {
  return serviceProvider(sp).getMetadata();
}

export interface StartedSamlRequest {
  /** The AuthnRequest ID the answer must carry in InResponseTo. */
  requestId: string;
  /** The IdP's SSO URL with the deflated AuthnRequest (HTTP-Redirect binding). */
  redirectUrl: string;
}

/** An AuthnRequest for the connection's IdP over HTTP-Redirect (unsigned: the ACS is fixed in the IdP's configuration). */
export function startSamlRequest(connection: SamlConnectionSettings, sp: SpEndpoints): StartedSamlRequest {
  // From a metadata document rather than settings: samlify's settings path warns on the console
  // about the missing logout endpoint on every request.
  const idp = IdentityProvider({
    metadata:
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${xmlAttr(connection.idpEntityId)}">` +
      `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
      `<md:SingleSignOnService Binding="${BINDING_REDIRECT}" Location="${xmlAttr(connection.idpSsoUrl)}"/>` +
      `</md:IDPSSODescriptor></md:EntityDescriptor>`,
  });
  const { id, context } = serviceProvider(sp).createLoginRequest(idp, 'redirect');
  return { requestId: id, redirectUrl: context };
}

function xmlAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
