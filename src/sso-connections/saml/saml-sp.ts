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

/**
 * An AuthnRequest for the connection's IdP over HTTP-Redirect (unsigned: the ACS is fixed in the
 * IdP's configuration). `forceAuthn` asks the IdP to authenticate the person again rather than
 * answer from its own session (saml-core §3.4.1, decision 1020).
 */
export function startSamlRequest(connection: SamlConnectionSettings, sp: SpEndpoints, forceAuthn = false): StartedSamlRequest {
  const { serviceProvider: ours, identityProvider } = entitiesFor(connection, sp);
  const { id, context } = ours.createLoginRequest(identityProvider, 'redirect', forceAuthn ? { forceAuthn: true } : undefined);
  return { requestId: id, redirectUrl: context };
}

type Entities = { serviceProvider: ReturnType<typeof serviceProvider>; identityProvider: ReturnType<typeof IdentityProvider> };
const MAX_CACHED_ENTITIES = 1000;
const cachedEntities = new Map<string, Entities>();

/**
 * samlify's two entities for a connection, built once per set of endpoints: each is a metadata
 * document written and then parsed with XPath (most of a sign-in start's CPU, decision 0945).
 * createLoginRequest only reads them (a fresh ID per request), so they are shared by every start.
 */
function entitiesFor(connection: SamlConnectionSettings, sp: SpEndpoints): Entities {
  const key = JSON.stringify([sp.entityId, sp.acsUrl, connection.idpEntityId, connection.idpSsoUrl]);
  const cached = cachedEntities.get(key);
  if (cached) return cached;
  // From a metadata document rather than settings: samlify's settings path warns on the console
  // about the missing logout endpoint on every request.
  const identityProvider = IdentityProvider({
    metadata:
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${xmlAttr(connection.idpEntityId)}">` +
      `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
      `<md:SingleSignOnService Binding="${BINDING_REDIRECT}" Location="${xmlAttr(connection.idpSsoUrl)}"/>` +
      `</md:IDPSSODescriptor></md:EntityDescriptor>`,
  });
  const entities = { serviceProvider: serviceProvider(sp), identityProvider };
  if (cachedEntities.size >= MAX_CACHED_ENTITIES) cachedEntities.clear();
  cachedEntities.set(key, entities);
  return entities;
}

function xmlAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
