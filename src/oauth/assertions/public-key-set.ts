import { importJWK, type JWK } from 'jose';
import { DomainError } from '../../common/errors';
import { COMMON_ERRORS } from '../../common/common.errors';

/** A public JWK as stored: its string, boolean and string-array members. */
export type StoredJwk = Record<string, string | boolean | string[]>;
export interface JwkSet {
  keys: StoredJwk[];
}

const MAX_KEYS = 10;

function invalid(field: string, problem: string): DomainError {
  return new DomainError(COMMON_ERRORS.validation_failed, `${field} ${problem}`, { details: { [field]: [problem] } });
}

/** A JWK Set of 1 to 10 public signing keys jose can import (a private key, or `d`, is refused). */
export async function publicKeySet(input: Record<string, unknown>): Promise<JwkSet> {
  const keys = input.keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_KEYS) throw invalid('jwks', `keys must hold 1 to ${MAX_KEYS} JWKs`);
  const out: StoredJwk[] = [];
  for (const [i, key] of keys.entries()) {
    if (key === null || typeof key !== 'object' || Array.isArray(key)) throw invalid('jwks', `keys[${i}] is not a JWK`);
    const jwk = key as JWK;
    if ('d' in jwk || jwk.kty === 'oct') throw invalid('jwks', `keys[${i}] must be a public key (no private or symmetric keys)`);
    if (!['RSA', 'EC', 'OKP'].includes(String(jwk.kty))) throw invalid('jwks', `keys[${i}].kty must be RSA, EC or OKP`);
    try {
      const alg = jwk.alg ?? (jwk.kty === 'RSA' ? 'RS256' : jwk.kty === 'OKP' ? 'EdDSA' : jwk.crv === 'P-384' ? 'ES384' : 'ES256');
      await importJWK(jwk, alg);
    } catch {
      throw invalid('jwks', `keys[${i}] is not a usable public key`);
    }
    out.push(storable(jwk));
  }
  if (JSON.stringify(out).length > 32 * 1024) throw invalid('jwks', 'is larger than 32 KiB');
  return { keys: out };
}

/** The JSON members a JWK has (strings, booleans, string arrays); anything else is dropped. */
function storable(jwk: JWK): StoredJwk {
  const out: StoredJwk = {};
  for (const [name, value] of Object.entries(jwk)) {
    if (typeof value === 'string' || typeof value === 'boolean') out[name] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out[name] = value as string[];
  }
  return out;
}
