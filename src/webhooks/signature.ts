import { createHmac, randomBytes } from 'node:crypto';

/** A new Standard Webhooks secret: "whsec_" + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks headers for one attempt: webhook-id (the delivery's id, the same on every
 * attempt so receivers can drop duplicates), webhook-timestamp (seconds) and webhook-signature
 * "v1,<base64 HMAC-SHA256 of id.timestamp.body under the secret's bytes>".
 */
export function webhookHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}
