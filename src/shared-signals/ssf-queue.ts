/** The job queue that pushes a stream's pending SETs (payload: { workspace_id, stream_id }); RFC 8935 delivery (decision 0972). */
export const SSF_PUSH_QUEUE = 'ssf.push';

/**
 * Attempts of one SET's push (decision 0523): backoff of 2 s doubling, capped at 5 minutes, makes
 * 30 attempts about two hours of retrying before the SET is marked failed.
 */
export const SSF_PUSH_ATTEMPTS = 30;

/** The wait before a SET's attempt number `attempt` + 1, after `attempt` failed (the job queue's own schedule). */
export function ssfPushBackoffMs(attempt: number): number {
  return Math.min(2000 * 2 ** (attempt - 1), 300_000);
}
