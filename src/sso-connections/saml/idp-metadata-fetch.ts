import { fetchOutbound, readBodyAtMost } from '../../common/guarded-fetch';
import { IdpMetadataError, MAX_METADATA_BYTES } from './idp-metadata-import';

const FETCH_TIMEOUT_MS = 5_000;

/**
 * Fetches an IdP's metadata document through the outbound guard the JWKS fetches use: https and
 * public addresses only (`allowPrivate` lifts it for development), no redirects, 256 KiB and 5 s
 * at most. The message names what went wrong, never the body.
 */
export async function fetchIdpMetadata(url: string, allowPrivate: boolean): Promise<string> {
  const refused = (reason: string) => new IdpMetadataError(`metadata_url refused: ${reason}`);
  const res = await fetchOutbound(
    url,
    { headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' } },
    { allowPrivate, timeoutMs: FETCH_TIMEOUT_MS },
    refused,
  ).catch((err: unknown) => {
    throw err instanceof IdpMetadataError ? err : new IdpMetadataError('metadata_url could not be fetched');
  });
  if (!res.ok) throw new IdpMetadataError(`metadata_url answered HTTP ${res.status}`);
  const body = await readBodyAtMost(res, MAX_METADATA_BYTES, () => new IdpMetadataError('metadata_url answered more than 256 KiB'));
  return body.toString('utf8');
}
