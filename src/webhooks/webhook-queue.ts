/** The job queue that sends one delivery attempt (payload: { delivery_id }). */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook.deliver';

/**
 * Attempts of the job itself: the delivery's own retries (with backoff, for the retry window)
 * are new jobs; these cover only infrastructure failures of one attempt (the database away).
 */
export const WEBHOOK_JOB_ATTEMPTS = 5;
