import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { createTestApp } from '../test/support/app';
import { buildOpenApiDocument } from '../src/openapi';

/** Regenerates openapi.json from the routes (needs the local Postgres, like the tests). */
async function main(): Promise<void> {
  process.env.JEST_WORKER_ID ??= '1';
  const t = await createTestApp();
  try {
    writeFileSync('openapi.json', `${JSON.stringify(buildOpenApiDocument(t.app), null, 2)}\n`);
  } finally {
    await t.close();
  }
}

void main();
