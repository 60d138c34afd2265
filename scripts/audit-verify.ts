/**
 * npm run audit:verify -- <export.ndjson> <checkpoints.json> <keys.json> [--tolerance-ms N]
 *
 * Verifies an audit export offline, with no access to the service: recomputes the workspace's
 * hash chain from the exported events (GET /developer/audit/export/), checks every signed
 * checkpoint in its span (GET /developer/audit/checkpoints/) against the public keys
 * (GET /developer/audit/keys/, or keys obtained out of band), and prints
 * { verified, checkpoints, unsealed, first_break }. Exit code 0: intact; 1: a break; 2: bad input.
 */
import { readFileSync } from 'node:fs';
import type { AuditExportLine } from '../src/audit/audit.repository';
import { ChainVerifier, checkpointsBySeq, CheckpointView, GENESIS_HASH, publicKeyMap, PublicKeyView } from '../src/audit/chain/chain';

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run audit:verify -- <export.ndjson> <checkpoints.json> <keys.json> [--tolerance-ms N]\n`);
  process.exit(2);
}

function listOf<T>(value: unknown, member: string): T[] {
  if (Array.isArray(value)) return value as T[];
  const inner = (value as Record<string, unknown> | null)?.[member];
  if (Array.isArray(inner)) return inner as T[];
  return usage(`expected an array or { "${member}": [...] }`);
}

const args = process.argv.slice(2);
const toleranceAt = args.indexOf('--tolerance-ms');
const toleranceMs = toleranceAt >= 0 ? Number(args.splice(toleranceAt, 2)[1]) : 5 * 60_000;
if (args.length !== 3 || !Number.isFinite(toleranceMs)) usage('three files are needed');
const [exportFile, checkpointsFile, keysFile] = args;

let lines: AuditExportLine[];
let checkpoints: CheckpointView[];
let keys: PublicKeyView[];
try {
  lines = readFileSync(exportFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as AuditExportLine);
  checkpoints = listOf<CheckpointView>(JSON.parse(readFileSync(checkpointsFile, 'utf8')), 'results');
  keys = listOf<PublicKeyView>(JSON.parse(readFileSync(keysFile, 'utf8')), 'keys');
} catch (err) {
  usage(`cannot read the input: ${(err as Error).message}`);
}

const sealed = lines.filter((l) => l.chain !== null).sort((a, b) => a.chain!.seq - b.chain!.seq);
const first = sealed[0]?.chain?.seq ?? 1;
const verifier = new ChainVerifier(
  checkpointsBySeq(checkpoints),
  publicKeyMap(keys),
  toleranceMs,
  first === 1 ? { prevHash: GENESIS_HASH, seq: 1 } : { prevHash: null, seq: first },
);
for (const line of sealed) {
  const { chain, ...event } = line;
  if (
    !verifier.push({
      seq: chain!.seq,
      event_id: event.id,
      prev_hash: chain!.prev_hash,
      hash: chain!.hash,
      sealed_at: chain!.sealed_at,
      event,
    })
  ) {
    break;
  }
}
const result = { ...verifier.result(), unsealed: lines.length - sealed.length };
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
process.exit(result.first_break ? 1 : 0);
