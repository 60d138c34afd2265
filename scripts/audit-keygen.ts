/**
 * npm run audit:keygen [-- <key id>]
 * Prints one AUDIT_SIGNING_KEYS entry ("kid:base64 PKCS#8 DER") of a new Ed25519 key. To rotate,
 * put the new entry first and keep the old ones after it (docs/audit.md, "Key rotation").
 */
import { generateAuditSigningKey } from '../src/config/dev-secrets';

const kid = process.argv[2] ?? `audit-${new Date().toISOString().slice(0, 10)}`;
process.stdout.write(`${generateAuditSigningKey(kid)}\n`);
