import { unsafeTargetReason } from '../../common/safe-http';
import { IdpMetadataError, MAX_METADATA_BYTES } from './idp-metadata-import';

const FETCH_TIMEOUT_MS = 5_000;

/**
 * Fetches an IdP's metadata document through the outbound guard the JWKS fetches use: https and
 * public addresses only (`allowPrivate` lifts it for development), no redirects, 256 KiB and 5 s
 * at most. The message names what went wrong, never the body.
 */
export async function fetchIdpMetadata(url: string, allowPrivate: boolean): Promise<string> {
  const reason = await unsafeTargetReason(url, allowPrivate);
  if (reason) throw new IdpMetadataError(`metadata_url refused: ${reason}`);
  let res: Response;
  try {
    res = await fetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
    });
  } catch {
    throw new IdpMetadataError('metadata_url could not be fetched');
  }
  if (!res.ok) throw new IdpMetadataError(`metadata_url answered HTTP ${res.status}`);
  return readLimited(res);
}

async function readLimited(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_METADATA_BYTES) {
      await reader.cancel();
      throw new IdpMetadataError('metadata_url answered more than 256 KiB');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
