/** The job queue that pushes one SET (payload: { set_id }); RFC 8935 delivery. */
export const SSF_PUSH_QUEUE = 'ssf.push';

/**
 * Attempts of one push (decision 0523): the job queue's own backoff (2 s doubling, capped at
 * 5 minutes) makes 30 attempts about two hours of retrying before the SET is marked failed.
 */
export const SSF_PUSH_ATTEMPTS = 30;
