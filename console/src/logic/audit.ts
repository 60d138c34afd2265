/** The audit page's filters, as typed in the form (strings; empty means "any"). */
export interface AuditFilters {
  event_type: string;
  severity: string;
  actor_type: string;
  actor_id: string;
  target_id: string;
  ip_address: string;
  /** datetime-local values (the browser's local time). */
  from: string;
  to: string;
}

export const EMPTY_FILTERS: AuditFilters = {
  event_type: '',
  severity: '',
  actor_type: '',
  actor_id: '',
  target_id: '',
  ip_address: '',
  from: '',
  to: '',
};

/** The query the API takes for these filters: empty ones left out, times as ISO 8601 in UTC. */
export function auditQuery(filters: AuditFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, raw] of Object.entries(filters) as Array<[keyof AuditFilters, string]>) {
    const value = raw.trim();
    if (!value) continue;
    if (key === 'from' || key === 'to') {
      const time = new Date(value);
      if (!Number.isNaN(time.getTime())) query[key] = time.toISOString();
      continue;
    }
    query[key] = value;
  }
  return query;
}

export interface VerifyResult {
  verified: number;
  checkpoints: number;
  first_break: { event_id: string | null; seq: number; reason: string } | null;
}

const REASONS: Record<string, string> = {
  edited_event: 'an event was changed after it was written',
  missing_event: 'an event is missing from the sequence',
  inserted_event: 'an event was inserted into the sequence',
  bad_checkpoint_signature: 'a checkpoint signature does not verify',
  checkpoint_mismatch: 'a checkpoint does not match the chain',
};

/** One sentence for the Verify result. */
export function describeVerification(result: VerifyResult): { ok: boolean; text: string } {
  const counted = `${result.verified} event${result.verified === 1 ? '' : 's'} verified, ${result.checkpoints} checkpoint${result.checkpoints === 1 ? '' : 's'}`;
  if (!result.first_break) return { ok: true, text: `Chain intact: ${counted}.` };
  const b = result.first_break;
  const where = b.event_id ? `event ${b.event_id} (position ${b.seq})` : `position ${b.seq}`;
  return { ok: false, text: `Chain broken at ${where}: ${REASONS[b.reason] ?? b.reason}. Before it: ${counted}.` };
}
