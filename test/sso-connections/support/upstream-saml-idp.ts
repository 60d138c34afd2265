import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { Extractor, IdentityProvider, ServiceProvider } from 'samlify';
import { generateDevKeyPair, type DevKeyPair } from '../../../src/saml/idp/dev-keypair';

/**
 * A company's SAML IdP for the tests: samlify's IdentityProvider with a key pair made for the
 * run. It answers with genuine signed responses; hostile variants are crafted from them.
 */
export interface UpstreamPerson {
  /** The persistent NameID. */
  subject: string;
  email: string;
  firstName?: string;
  lastName?: string;
  groups?: string[];
  authnClass?: string;
  /** Extra attributes, name -> values. */
  attributes?: Record<string, string[]>;
}

export interface ResponseOptions {
  inResponseTo?: string | null;
  audience?: string;
  destination?: string | null;
  recipient?: string;
  issuer?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  nameIdFormat?: string;
  statusCode?: string;
  /** Sign the whole Response (as well as, or instead of, the assertion). */
  signResponse?: boolean;
  signAssertion?: boolean;
  assertionId?: string;
}

const BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

let sharedKeys: DevKeyPair | undefined;
/** One key pair per test process (openssl takes a while on a loaded machine); `fresh` makes another. */
export function idpKeys(fresh = false): DevKeyPair {
  if (fresh) return generateDevKeyPair('upstream test IdP (other)');
  sharedKeys ??= generateDevKeyPair('upstream test IdP');
  return sharedKeys;
}

export class UpstreamSamlIdp {
  readonly keys: DevKeyPair;
  constructor(
    readonly entityId = `https://idp-${randomUUID().slice(0, 8)}.example.test/metadata`,
    readonly ssoUrl = 'https://idp.example.test/sso',
    keys?: DevKeyPair,
  ) {
    this.keys = keys ?? idpKeys();
  }

  private idp() {
    return IdentityProvider({
      entityID: this.entityId,
      privateKey: this.keys.keyPem,
      signingCert: this.keys.certPem,
      singleSignOnService: [{ Binding: BINDING_REDIRECT, Location: this.ssoUrl }],
      // Not used; without one samlify warns on the console at every response.
      singleLogoutService: [{ Binding: BINDING_REDIRECT, Location: `${this.ssoUrl}/logout` }],
      nameIDFormat: [PERSISTENT],
    });
  }

  metadataXml(): string {
    return this.idp().getMetadata();
  }

  /** The unsigned Response XML (the template every variant starts from). */
  responseXml(sp: { entityId: string; acsUrl: string }, person: UpstreamPerson, o: ResponseOptions = {}): string {
    const now = new Date();
    const notBefore = (o.notBefore ?? new Date(now.getTime() - 1000)).toISOString();
    const notOnOrAfter = (o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
    const inResponseTo = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
    const destination = o.destination === null ? '' : ` Destination="${o.destination ?? sp.acsUrl}"`;
    const issuer = o.issuer ?? this.entityId;
    const attributes: Record<string, string[]> = {
      email: [person.email],
      ...(person.firstName ? { firstName: [person.firstName] } : {}),
      ...(person.lastName ? { lastName: [person.lastName] } : {}),
      ...(person.groups ? { groups: person.groups } : {}),
      ...(person.attributes ?? {}),
    };
    const attributeXml = Object.entries(attributes)
      .map(
        ([name, values]) =>
          `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
            .map((v) => `<saml:AttributeValue>${escapeXml(v)}</saml:AttributeValue>`)
            .join('')}</saml:Attribute>`,
      )
      .join('');
    return (
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${now.toISOString()}"${destination}${inResponseTo}>` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="${o.statusCode ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>` +
      `<saml:Assertion ID="${o.assertionId ?? `_${randomUUID()}`}" Version="2.0" IssueInstant="${now.toISOString()}">` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${o.nameIdFormat ?? PERSISTENT}">${escapeXml(person.subject)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${o.recipient ?? sp.acsUrl}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${o.audience ?? sp.entityId}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>${
        person.authnClass ?? 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport'
      }</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement>${attributeXml}</saml:AttributeStatement>` +
      `</saml:Assertion></samlp:Response>`
    );
  }

  /**
   * A genuine response signed by samlify's IdP (over the assertion by default; `signResponse`
   * signs the Response too, or alone with `signAssertion: false`), as the raw XML.
   */
  async signedResponseXml(sp: { entityId: string; acsUrl: string }, person: UpstreamPerson, o: ResponseOptions = {}): Promise<string> {
    const signAssertion = o.signAssertion ?? true;
    const spEntity = ServiceProvider({
      entityID: sp.entityId,
      assertionConsumerService: [{ Binding: BINDING_POST, Location: sp.acsUrl }],
      wantAssertionsSigned: signAssertion,
      wantMessageSigned: o.signResponse ?? false,
    });
    const xml = this.responseXml(sp, person, o);
    const { context } = await this.idp().createLoginResponse(spEntity, {} as never, 'post', { email: person.email }, () => ({
      id: 'unused',
      context: xml,
    }));
    return Buffer.from(context, 'base64').toString('utf8');
  }

  async signedResponse(sp: { entityId: string; acsUrl: string }, person: UpstreamPerson, o: ResponseOptions = {}): Promise<string> {
    return base64(await this.signedResponseXml(sp, person, o));
  }
}

export function base64(xml: string): string {
  return Buffer.from(xml, 'utf8').toString('base64');
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The ID of the AuthnRequest an HTTP-Redirect URL carries (deflated, base64, in SAMLRequest). */
export function authnRequestIdOf(location: string): string {
  const encoded = new URL(location).searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /\bID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no ID in the AuthnRequest ${xml.slice(0, 200)}`);
  return id;
}

/** What the IdP reads from an AuthnRequest: its ID, and whether it must authenticate the person again. */
export interface ReceivedAuthnRequest {
  id: string;
  forceAuthn: boolean;
}

/** The AuthnRequest an HTTP-Redirect URL carries, read by samlify's extractor as the IdP reads it. */
export function authnRequestOf(location: string): ReceivedAuthnRequest {
  const encoded = new URL(location).searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const { request } = Extractor.extract(xml, [{ key: 'request', localPath: ['AuthnRequest'], attributes: ['ID', 'ForceAuthn'] }]) as {
    request?: { id?: string; forceAuthn?: string };
  };
  if (!request?.id) throw new Error(`no ID in the AuthnRequest ${xml.slice(0, 200)}`);
  // xs:boolean (saml-core §3.4.1): "true" or "1".
  return { id: request.id, forceAuthn: request.forceAuthn === 'true' || request.forceAuthn === '1' };
}

/** The company's IdP as a browser meets it: its SSO URL signs in `person` at once and posts back. */
export interface ServedSamlIdp {
  /** The SSO URL (on "localhost": another site than the service on 127.0.0.1). */
  ssoUrl: string;
  /** Who is signed in at the IdP; set by the test before each sign-in. */
  person: UpstreamPerson | null;
  /** The last SAMLResponse it posted (base64), for replays. */
  lastResponse: string | null;
  /** The last AuthnRequest it received. */
  lastRequest: ReceivedAuthnRequest | null;
  close(): Promise<void>;
}

/**
 * Serves `GET /sso?SAMLRequest=&RelayState=` (HTTP-Redirect): reads the AuthnRequest's ID and
 * answers with a page whose script posts a signed Response to `sp.acsUrl` (HTTP-POST binding),
 * as an IdP does once the person is signed in there.
 */
export async function serveSamlIdp(
  makeIdp: (ssoUrl: string) => UpstreamSamlIdp,
  sp: () => { entityId: string; acsUrl: string },
): Promise<ServedSamlIdp & { idp: UpstreamSamlIdp }> {
  const server = createServer((req, res) => {
    void answer(req.url ?? '/', res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const ssoUrl = `http://localhost:${(server.address() as AddressInfo).port}/sso`;
  const served = {
    ssoUrl,
    idp: makeIdp(ssoUrl),
    person: null as UpstreamPerson | null,
    lastResponse: null as string | null,
    lastRequest: null as ReceivedAuthnRequest | null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  async function answer(path: string, res: ServerResponse): Promise<void> {
    const url = new URL(path, ssoUrl);
    if (url.pathname !== '/sso' || !served.person) {
      res.writeHead(404).end();
      return;
    }
    const target = sp();
    served.lastRequest = authnRequestOf(url.href);
    const response = await served.idp.signedResponse(target, served.person, { inResponseTo: served.lastRequest.id });
    served.lastResponse = response;
    const relay = url.searchParams.get('RelayState');
    res
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end(
        `<!doctype html><form method="post" action="${escapeXml(target.acsUrl)}">` +
          `<input type="hidden" name="SAMLResponse" value="${response}">` +
          (relay ? `<input type="hidden" name="RelayState" value="${escapeXml(relay)}">` : '') +
          `<button>Continue</button></form><script>document.forms[0].submit()</script>`,
      );
  }
  return served;
}
