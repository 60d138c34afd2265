import { SPMetadata } from 'samlify';
import { BINDING } from '../protocol/saml-urns';
import { invalid } from './sp-rules';

export interface ImportedSpMetadata {
  sp_entity_id?: string;
  acs_url?: string;
  sp_cert_pem?: string;
}

const DTD_MARKUP = /<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;

/**
 * Reads an SP's EntityDescriptor with samlify's metadata parser (XXE-safe DOM
 * options); DTDs are refused first, as for AuthnRequests. Takes the entity id, the
 * first HTTP-POST AssertionConsumerService and the signing certificate.
 */
export function importSpMetadata(xml: string): ImportedSpMetadata {
  if (DTD_MARKUP.test(xml)) throw invalid('metadata_xml', 'metadata_xml must not contain a DTD');
  let md: ReturnType<typeof SPMetadata>;
  try {
    md = SPMetadata(xml);
  } catch {
    throw invalid('metadata_xml', 'metadata_xml is not an SP EntityDescriptor');
  }
  const entityId = safe(() => md.getEntityID());
  if (!entityId || typeof entityId !== 'string') throw invalid('metadata_xml', 'metadata_xml has no entityID');
  const acs = postAcs(safe(() => (md.getAssertionConsumerService as (b?: string) => unknown)()));
  const cert = first(safe(() => md.getX509Certificate('signing'))) ?? first(safe(() => md.getX509Certificate('encryption')));
  return {
    sp_entity_id: entityId,
    acs_url: acs,
    sp_cert_pem: cert ? toPem(cert) : undefined,
  };
}

interface AcsEntry {
  binding?: string;
  location?: string;
  index?: string;
  isDefault?: string;
}

/** The HTTP-POST endpoint marked isDefault, else the lowest index, else the first (saml-metadata §2.2.3). */
function postAcs(raw: unknown): string | undefined {
  const list = (Array.isArray(raw) ? raw : raw ? [raw] : []) as AcsEntry[];
  const post = list.filter((e) => e.binding === BINDING.post && typeof e.location === 'string');
  const chosen =
    post.find((e) => e.isDefault === 'true') ?? [...post].sort((a, b) => Number(a.index ?? Infinity) - Number(b.index ?? Infinity))[0];
  return chosen?.location?.trim() || undefined;
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

function first(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function toPem(b64: string): string {
  const body = b64.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}
