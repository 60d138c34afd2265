/**
 * The audit hash chain and its signed checkpoints (decision 0710), as pure functions: the
 * service's sealer and verify endpoint and the offline `npm run audit:verify` share them, so
 * the proof a customer checks offline is the one the service computes.
 *
 *   link(n).hash = SHA-256( "idsvc-audit-chain.v1" \n prev_hash \n seq \n sealed_at \n canonical(event) )
 *
 * where prev_hash is link(n-1).hash (64 zeros for the first link), and canonical(event) is the
 * event as the list API shows it (every column), serialised as JSON with object keys sorted
 * and no whitespace. A checkpoint signs (Ed25519) the head: workspace, seq, event id, hash and
 * the time of signing.
 */
import { createHash, createPublicKey, KeyObject, verify as verifySignature } from 'node:crypto';
import type { AuditEventView } from '../audit.repository';

export const GENESIS_HASH = '0'.repeat(64);

/** JSON with sorted object keys and no whitespace (RFC 8785's shape for the values an audit event holds). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The event's own fields only (an export line also carries its `chain` member). */
export function eventContent(event: AuditEventView): AuditEventView {
  return {
    id: event.id,
    workspace_id: event.workspace_id,
    event_type: event.event_type,
    severity: event.severity,
    actor_type: event.actor_type,
    actor_id: event.actor_id,
    actor_email: event.actor_email,
    target_type: event.target_type,
    target_id: event.target_id,
    oauth_client_id: event.oauth_client_id,
    ip_address: event.ip_address,
    user_agent: event.user_agent,
    request_id: event.request_id,
    message: event.message,
    metadata: event.metadata,
    created_at: event.created_at,
  };
}

export function linkHash(prevHash: string, seq: number, sealedAt: string, event: AuditEventView): string {
  return createHash('sha256')
    .update(`idsvc-audit-chain.v1\n${prevHash}\n${seq}\n${sealedAt}\n${canonicalJson(eventContent(event))}`)
    .digest('hex');
}

/** A signed chain head, as GET /developer/audit/checkpoints/ shows it. */
export interface CheckpointView {
  id: string;
  workspace_id: string;
  seq: number;
  event_id: string;
  hash: string;
  key_id: string;
  signature: string;
  signed_at: string;
}

/** The bytes a checkpoint's signature covers. */
export function checkpointMessage(c: Pick<CheckpointView, 'workspace_id' | 'seq' | 'event_id' | 'hash' | 'signed_at'>): Buffer {
  return Buffer.from(`idsvc-audit-checkpoint.v1\n${c.workspace_id}\n${c.seq}\n${c.event_id}\n${c.hash}\n${c.signed_at}`);
}

/** A public key as GET /developer/audit/keys/ shows it. */
export interface PublicKeyView {
  key_id: string;
  algorithm: 'Ed25519';
  /** PEM (SPKI). */
  public_key: string;
  status: 'active' | 'retired';
}

export function publicKeyMap(keys: readonly PublicKeyView[]): Map<string, KeyObject> {
  return new Map(keys.map((k) => [k.key_id, createPublicKey(k.public_key)]));
}

/** One link of the chain with its event (null when the event is no longer in the log). */
export interface ChainLink {
  seq: number;
  event_id: string;
  prev_hash: string;
  hash: string;
  sealed_at: string;
  event: AuditEventView | null;
}

export type BreakReason = 'edited_event' | 'missing_event' | 'inserted_event' | 'bad_checkpoint_signature' | 'checkpoint_mismatch';

export interface ChainBreak {
  event_id: string | null;
  seq: number;
  reason: BreakReason;
}

export interface VerifyResult {
  verified: number;
  checkpoints: number;
  first_break: ChainBreak | null;
}

/**
 * Walks the links of one workspace in seq order and stops at the first break:
 * - missing_event: a link whose event is gone, or a gap in seq / a link that does not follow its predecessor;
 * - edited_event: the event's content no longer hashes to its link;
 * - inserted_event: an event older than an earlier link's sealing by more than the tolerance
 *   (a row back-dated into the log; a real late commit is sealed within seconds);
 * - bad_checkpoint_signature: a checkpoint whose signature does not verify under its key id;
 * - checkpoint_mismatch: a well-signed checkpoint whose head differs from the recomputed chain.
 */
export class ChainVerifier {
  private prev: string | null;
  private expectedSeq: number | null;
  private latestSealMs = -Infinity;
  private verified = 0;
  private checkpointsChecked = 0;
  private broken: ChainBreak | null = null;

  constructor(
    private readonly checkpoints: ReadonlyMap<number, readonly CheckpointView[]>,
    private readonly keys: ReadonlyMap<string, KeyObject>,
    private readonly toleranceMs: number,
    /** The hash before the first link checked (GENESIS_HASH from the start); null: trust the first link's prev_hash. */
    start: { prevHash: string | null; seq: number | null },
  ) {
    this.prev = start.prevHash;
    this.expectedSeq = start.seq;
  }

  /** Checks the next link; false once a break was found. */
  push(link: ChainLink): boolean {
    if (this.broken) return false;
    const fail = (reason: BreakReason, eventId: string | null = link.event_id) => {
      this.broken = { event_id: eventId, seq: link.seq, reason };
      return false;
    };
    if (this.expectedSeq !== null && link.seq !== this.expectedSeq) return fail('missing_event', null);
    if (this.prev !== null && link.prev_hash !== this.prev) return fail('missing_event', null);
    if (!link.event) return fail('missing_event');
    const hash = linkHash(link.prev_hash, link.seq, link.sealed_at, link.event);
    if (hash !== link.hash || link.event.id !== link.event_id) return fail('edited_event');
    if (Date.parse(link.event.created_at) < this.latestSealMs - this.toleranceMs) return fail('inserted_event');
    for (const checkpoint of this.checkpoints.get(link.seq) ?? []) {
      const key = this.keys.get(checkpoint.key_id);
      const signatureOk =
        key !== undefined && verifySignature(null, checkpointMessage(checkpoint), key, Buffer.from(checkpoint.signature, 'base64'));
      if (!signatureOk) return fail('bad_checkpoint_signature', checkpoint.event_id);
      if (checkpoint.hash !== hash || checkpoint.event_id !== link.event_id) return fail('checkpoint_mismatch', checkpoint.event_id);
      this.checkpointsChecked++;
    }
    this.latestSealMs = Math.max(this.latestSealMs, Date.parse(link.sealed_at));
    this.prev = hash;
    this.expectedSeq = link.seq + 1;
    this.verified++;
    return true;
  }

  result(): VerifyResult {
    return { verified: this.verified, checkpoints: this.checkpointsChecked, first_break: this.broken };
  }
}

export function checkpointsBySeq(checkpoints: readonly CheckpointView[]): Map<number, CheckpointView[]> {
  const bySeq = new Map<number, CheckpointView[]>();
  for (const c of checkpoints) bySeq.set(c.seq, [...(bySeq.get(c.seq) ?? []), c]);
  return bySeq;
}
