import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { BackupArtifact } from './database-engine';

/** SHA-256 and size of a finished backup file. */
export async function describeFile(path: string): Promise<BackupArtifact> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const { size } = await stat(path);
  return { path, sizeBytes: size, sha256: hash.digest('hex') };
}

/**
 * Runs `write` against a temp file beside `path` and renames it into place, so a
 * backup file either is complete or does not exist (a retried job starts over).
 */
export async function writeAtomically(path: string, write: (tmp: string) => Promise<void>): Promise<BackupArtifact> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.partial-${process.pid}-${Date.now()}`;
  try {
    await write(tmp);
    await rename(tmp, path);
  } finally {
    await rm(tmp, { force: true });
  }
  return describeFile(path);
}
