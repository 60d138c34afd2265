import { X509Certificate } from 'node:crypto';
import { IdPMetadata } from 'samlify';
import { hasDtd } from './saml-xml';

/** What an IdP's metadata tells a connection. */
export interface ImportedIdpMetadata {
  idpEntityId: string;
  idpSsoUrl: string;
  /** PEM, at most two (the current key and the next one during a rollover). */
  idpCertificates: string[];
}

export const MAX_METADATA_BYTES = 256 * 1024;
export const MAX_IDP_CERTIFICATES = 2;
/** samlify names bindings by short name ('redirect'); given the URN it answers every service as an object. */
const BINDING_REDIRECT = 'redirect';

/** A metadata document or certificate the developer supplied is unusable; the message says why. */
export class IdpMetadataError extends Error {}

/**
 * Reads an IdP's EntityDescriptor (saml-metadata §2.4.3) with samlify's metadata parser, DTDs
 * refused first: its entity id, the HTTP-Redirect SingleSignOnService and its signing
 * certificates (those marked for signing, else those without a use).
 */
export function importIdpMetadata(xml: string): ImportedIdpMetadata {
  if (Buffer.byteLength(xml, 'utf8') > MAX_METADATA_BYTES) throw new IdpMetadataError('metadata is larger than 256 KiB');
  if (hasDtd(xml)) throw new IdpMetadataError('metadata must not contain a DTD');
  let md: ReturnType<typeof IdPMetadata>;
  try {
    md = IdPMetadata(xml);
  } catch {
    throw new IdpMetadataError('metadata is not an IdP EntityDescriptor');
  }
  const entityId = safe(() => md.getEntityID());
  if (typeof entityId !== 'string' || entityId.trim() === '') throw new IdpMetadataError('metadata has no entityID');
  const sso = safe(() => md.getSingleSignOnService(BINDING_REDIRECT));
  if (typeof sso !== 'string' || sso.trim() === '') throw new IdpMetadataError('metadata has no HTTP-Redirect SingleSignOnService');
  const raw = safe(() => md.getX509Certificate('signing'));
  const certs = (Array.isArray(raw) ? raw : raw ? [raw] : []).filter((c): c is string => typeof c === 'string' && c.trim() !== '');
  if (certs.length === 0) throw new IdpMetadataError('metadata has no signing certificate');
  return { idpEntityId: entityId.trim(), idpSsoUrl: sso.trim(), idpCertificates: normalizeCertificates(certs) };
}

/**
 * Certificates as PEM, each one parsed to prove it is a certificate; at most two, so a rollover
 * keeps the old key trusted until the IdP has switched (decision 0423).
 */
export function normalizeCertificates(certificates: readonly string[]): string[] {
  const unique = [...new Set(certificates.map(toPem))];
  if (unique.length === 0) throw new IdpMetadataError('at least one IdP certificate is required');
  if (unique.length > MAX_IDP_CERTIFICATES) throw new IdpMetadataError('at most two IdP certificates (the current and the next)');
  for (const pem of unique) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new IdpMetadataError('an IdP certificate is not a valid X.509 certificate');
    }
  }
  return unique;
}

function toPem(value: string): string {
  const body = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new IdpMetadataError('an IdP certificate is not base64 PEM');
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
