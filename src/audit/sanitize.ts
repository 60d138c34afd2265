const MAX_METADATA_BYTES = 16 * 1024;

/** Strip what PostgreSQL text rejects (NUL) and cut to the column's limit. */
export function sanitizeText(value: unknown, max: number): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).replace(/\u0000/g, '');
  return Array.from(text).slice(0, max).join('');
}

/**
 * Metadata must always insert: values are made JSON-safe (no NUL, no cycles,
 * bigint as string) and an oversized object is replaced by a marker.
 */
export function sanitizeMetadata(metadata: Record<string, unknown> | undefined): string {
  if (!metadata) return '{}';
  const seen = new WeakSet<object>();
  let json: string;
  try {
    json = JSON.stringify(metadata, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'string') return value.replace(/\u0000/g, '');
      if (value && typeof value === 'object') {
        if (seen.has(value)) return '[circular]';
        seen.add(value);
      }
      return value;
    });
  } catch {
    return JSON.stringify({ unserializable: true });
  }
  if (!json || json === 'null') return '{}';
  if (Buffer.byteLength(json) > MAX_METADATA_BYTES) return JSON.stringify({ truncated: true, original_bytes: Buffer.byteLength(json) });
  return json;
}
