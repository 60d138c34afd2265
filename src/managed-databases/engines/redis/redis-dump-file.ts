import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/**
 * The Redis backup format: NDJSON, a header line then one line per key with the
 * key, its DUMP payload (base64, binary-safe) and its remaining TTL in ms (0 = none).
 */
export interface DumpHeader {
  format: 'managed-redis-keys';
  version: 1;
  prefix: string;
  created_at: string;
}

export interface DumpedKey {
  key: Buffer;
  payload: Buffer;
  ttlMs: number;
}

export class DumpWriter {
  private readonly out;

  constructor(path: string, prefix: string) {
    this.out = createWriteStream(path, { flags: 'wx' });
    const header: DumpHeader = { format: 'managed-redis-keys', version: 1, prefix, created_at: new Date().toISOString() };
    this.out.write(JSON.stringify(header) + '\n');
  }

  async write(entry: DumpedKey): Promise<void> {
    const line = JSON.stringify({ k: entry.key.toString('base64'), v: entry.payload.toString('base64'), t: entry.ttlMs });
    if (!this.out.write(line + '\n')) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}

/** Reads a dump back; refuses files that are not ours or that hold keys outside `prefix`. */
export async function* readDump(path: string, prefix: string): AsyncGenerator<DumpedKey> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let header: DumpHeader | undefined;
  const want = Buffer.from(prefix);
  for await (const line of lines) {
    if (!line) continue;
    if (!header) {
      header = JSON.parse(line) as DumpHeader;
      if (header.format !== 'managed-redis-keys' || header.version !== 1) throw new Error('not a managed Redis backup');
      continue;
    }
    const row = JSON.parse(line) as { k: string; v: string; t: number };
    const key = Buffer.from(row.k, 'base64');
    // A backup only ever restores into its own tenant's keyspace, whatever the file says.
    if (!key.subarray(0, want.length).equals(want)) throw new Error('backup holds a key outside the tenant prefix');
    yield { key, payload: Buffer.from(row.v, 'base64'), ttlMs: Math.max(0, Number(row.t) || 0) };
  }
  if (!header) throw new Error('backup file is empty');
}
