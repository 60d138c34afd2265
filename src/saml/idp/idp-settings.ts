import { createPrivateKey, createSecretKey, KeyObject, X509Certificate } from 'node:crypto';
import { pemBody } from '../protocol/xml-text';

/** The environment variables this module reads (names as in the spec). */
export interface IdpEnv {
  SAML_IDP_ENTITY_ID?: string;
  SAML_IDP_SSO_URL?: string;
  SAML_IDP_CERT_PEM?: string;
  SAML_IDP_KEY_PEM?: string;
  SAML_IDP_LOGIN_URL?: string;
  SAML_IDP_NEXT_CERT_PEM?: string;
  /** HMAC key of the pairwise identifiers; optional (generated and kept in the database, nameid-key.ts). */
  SAML_NAMEID_SECRET?: string;
}

/** A ready identity provider: key and certificates parsed once, at boot. */
export interface IdpSettings {
  readonly entityId: string;
  readonly ssoUrl: string;
  readonly loginUrl: string;
  /** Parsed once; passing PEM text to the signer would re-parse the key on every response. */
  readonly privateKey: KeyObject;
  readonly certPem: string;
  /** Base64 DER of the signing certificate, as KeyInfo and metadata carry it. */
  readonly certBase64: string;
  /** Published beside the current certificate during a key rollover. */
  readonly nextCertBase64?: string;
  readonly certNotAfter: Date;
  /** HMAC key of the per-SP identifiers: persistent NameID and SessionIndex (protocol/pairwise.ts). */
  readonly pairwiseKey: KeyObject;
}

/** Everything but the NameID key, which may come from the database (nameid-key.ts). */
export type IdpSigning = Omit<IdpSettings, 'pairwiseKey'>;

type NotConfigured = { readonly configured: false; readonly missing: readonly string[]; readonly message: string };
export type IdpState = { readonly configured: true; readonly settings: IdpSettings } | NotConfigured;
export type IdpSigningState = { readonly configured: true; readonly signing: IdpSigning } | NotConfigured;

export const DEFAULT_LOGIN_URL = '/auth/login/';
/** The spec's four: all an operator must set (the NameID key is optional). */
const REQUIRED = ['SAML_IDP_ENTITY_ID', 'SAML_IDP_SSO_URL', 'SAML_IDP_CERT_PEM', 'SAML_IDP_KEY_PEM'] as const;
const MIN_SECRET_CHARS = 32;
const MIN_RSA_BITS = 2048;

/** A present but unusable configuration: the service refuses to boot rather than sign with it. */
export class IdpConfigError extends Error {
  constructor(message: string) {
    super(`SAML IdP configuration: ${message}`);
    this.name = 'IdpConfigError';
  }
}

/**
 * Reads the IdP variables. Any of the four unset -> "not configured" (metadata and SSO answer
 * 503). All set -> the key and certificate are parsed and checked (RSA >= 2048 bits, key matches
 * certificate); a bad pair throws so boot fails. The NameID key is added by completeIdpSettings.
 */
export function resolveIdpSigning(env: IdpEnv): IdpSigningState {
  const missing = REQUIRED.filter((name) => !env[name]?.trim());
  if (missing.length > 0) {
    return {
      configured: false,
      missing,
      message: `The SAML identity provider is not configured: set ${missing.join(', ')} (see docs/saml.md; npm run saml:keygen makes a development pair).`,
    };
  }
  return { configured: true, signing: loadIdpSigning(env as Required<IdpEnv>) };
}

/** The signing settings with the NameID key (SAML_NAMEID_SECRET, or the one kept in the database). */
export function completeIdpSettings(signing: IdpSigning, nameIdSecret: string): IdpSettings {
  if (nameIdSecret.trim().length < MIN_SECRET_CHARS) {
    throw new IdpConfigError(`SAML_NAMEID_SECRET must be at least ${MIN_SECRET_CHARS} characters of random text`);
  }
  return Object.freeze({ ...signing, pairwiseKey: createSecretKey(Buffer.from(nameIdSecret.trim(), 'utf8')) });
}

/** Both steps, for callers that hold SAML_NAMEID_SECRET (tools and tests); the service uses IdpRuntime. */
export function resolveIdpState(env: IdpEnv): IdpState {
  const state = resolveIdpSigning(env);
  if (!state.configured) return state;
  if (!env.SAML_NAMEID_SECRET?.trim()) {
    throw new IdpConfigError('resolveIdpState needs SAML_NAMEID_SECRET (the service reads it from the database)');
  }
  return { configured: true, settings: completeIdpSettings(state.signing, env.SAML_NAMEID_SECRET) };
}

function loadIdpSigning(env: Required<IdpEnv>): IdpSigning {
  const cert = parseCertificate(env.SAML_IDP_CERT_PEM, 'SAML_IDP_CERT_PEM');
  const privateKey = parsePrivateKey(env.SAML_IDP_KEY_PEM);
  if (!cert.checkPrivateKey(privateKey)) {
    throw new IdpConfigError('SAML_IDP_KEY_PEM does not match the public key of SAML_IDP_CERT_PEM');
  }
  const certPem = cert.toString();
  const next = env.SAML_IDP_NEXT_CERT_PEM?.trim() ? parseCertificate(env.SAML_IDP_NEXT_CERT_PEM, 'SAML_IDP_NEXT_CERT_PEM') : undefined;
  if (next && next.fingerprint256 === cert.fingerprint256) {
    throw new IdpConfigError('SAML_IDP_NEXT_CERT_PEM is the same certificate as SAML_IDP_CERT_PEM');
  }
  return Object.freeze({
    entityId: requireText(env.SAML_IDP_ENTITY_ID),
    ssoUrl: requireAbsoluteUrl(env.SAML_IDP_SSO_URL, 'SAML_IDP_SSO_URL'),
    loginUrl: env.SAML_IDP_LOGIN_URL?.trim() || DEFAULT_LOGIN_URL,
    privateKey,
    certPem,
    certBase64: pemBody(certPem),
    nextCertBase64: next ? pemBody(next.toString()) : undefined,
    certNotAfter: new Date(cert.validTo),
  });
}

/** Env files often carry PEM on one line with literal "\n"; restore the newlines. */
function normalizePem(value: string): string {
  return value.replace(/\\n/g, '\n').trim();
}

function parseCertificate(pem: string, name: string): X509Certificate {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(normalizePem(pem));
  } catch {
    throw new IdpConfigError(`${name} is not a PEM X.509 certificate`);
  }
  assertStrongRsa(cert.publicKey, name);
  return cert;
}

function parsePrivateKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(normalizePem(pem));
  } catch {
    throw new IdpConfigError('SAML_IDP_KEY_PEM is not an unencrypted PEM private key');
  }
  assertStrongRsa(key, 'SAML_IDP_KEY_PEM');
  return key;
}

function assertStrongRsa(key: KeyObject, name: string): void {
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_BITS) {
    throw new IdpConfigError(
      `${name} must hold an RSA key of at least ${MIN_RSA_BITS} bits (found ${key.asymmetricKeyType ?? 'unknown'} ${bits || ''})`.trim(),
    );
  }
}

function requireText(value: string): string {
  return value.trim();
}

function requireAbsoluteUrl(value: string, name: string): string {
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'https:' || url.protocol === 'http:') return value.trim();
  } catch {
    /* fall through */
  }
  throw new IdpConfigError(`${name} must be an absolute http(s) URL`);
}
