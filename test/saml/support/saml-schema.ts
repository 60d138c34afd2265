/**
 * SAML 2.0 schema validation (xmllint compiled to WebAssembly, with the OASIS schemas that
 * @authenio/samlify-xmllint-wasm ships) for many documents in one xmllint run. Each run starts a
 * worker thread, compiles the WebAssembly module and parses the schemas, which costs far more than
 * validating a document (decision 0201 measured 80-90 ms on a quiet machine, seconds on a loaded
 * one), so tests validate their documents in batches.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const SCHEMA_DIR = join(dirname(require.resolve('@authenio/samlify-xmllint-wasm')), 'schemas');
const [ROOT_SCHEMA, ...PRELOAD] = [
  'saml-schema-protocol-2.0.xsd',
  'datatypes.dtd',
  'saml-schema-assertion-2.0.xsd',
  'xmldsig-core-schema.xsd',
  'XMLSchema.dtd',
  'xenc-schema.xsd',
].map((fileName) => ({ fileName, contents: readFileSync(join(SCHEMA_DIR, fileName), 'utf8') }));

/** Whether each document is valid against the SAML 2.0 protocol schema (same order as the input). */
export async function schemaValid(documents: readonly string[]): Promise<boolean[]> {
  if (documents.length === 0) return [];
  const files = documents.map((contents, i) => ({ fileName: `doc_${i}.xml`, contents }));
  try {
    const result = await validateXML({ xml: files, extension: 'schema', schema: [ROOT_SCHEMA], preload: PRELOAD });
    // xmllint names every file on stderr: "doc_3.xml validates" or "doc_3.xml fails to validate".
    const passed = new Set(
      result.rawOutput
        .split('\n')
        .map((line) => /^(doc_\d+\.xml) validates$/.exec(line.trim())?.[1])
        .filter((name): name is string => name !== undefined),
    );
    return files.map((f) => passed.has(f.fileName));
  } catch (err) {
    // A document that is not even well-formed makes xmllint exit with an unclassified error for the
    // whole run: judge each document on its own then.
    if (documents.length === 1) return [false];
    if (!(err instanceof Error)) throw err;
    const verdicts: boolean[] = [];
    for (const doc of documents) verdicts.push(...(await schemaValid([doc])));
    return verdicts;
  }
}
