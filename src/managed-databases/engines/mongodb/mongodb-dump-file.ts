import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { BSON, type Document } from 'mongodb';

/**
 * The MongoDB backup format: NDJSON in canonical Extended JSON (types survive the
 * round trip). A header, then per collection a `collection` line (options and
 * indexes) followed by its documents as `doc` lines.
 */
export type DumpLine =
  | { type: 'header'; format: 'managed-mongodb'; version: 1; database: string; created_at: string }
  | { type: 'collection'; name: string; options: Document; indexes: Document[] }
  | { type: 'doc'; collection: string; doc: Document };

export class MongoDumpWriter {
  private readonly out;

  constructor(path: string) {
    this.out = createWriteStream(path, { flags: 'wx' });
  }

  async write(line: DumpLine): Promise<void> {
    if (!this.out.write(BSON.EJSON.stringify(line, { relaxed: false }) + '\n')) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}

export async function* readMongoDump(path: string): AsyncGenerator<DumpLine> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let first = true;
  for await (const text of lines) {
    if (!text) continue;
    const line = BSON.EJSON.parse(text, { relaxed: false }) as DumpLine;
    if (first && (line.type !== 'header' || line.format !== 'managed-mongodb')) throw new Error('not a managed MongoDB backup');
    first = false;
    yield line;
  }
  if (first) throw new Error('backup file is empty');
}
