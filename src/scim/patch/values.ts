import { isEmail } from 'class-validator';
import { ScimError } from '../scim.errors';
import { getCI, isObject } from './normalize';

export const NAME_MAX = 30;

/** Booleans arrive as true, "true", "True" or "False" depending on the client (Entra sends strings). */
export function toBoolean(value: unknown, attr: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw new ScimError('invalidValue', `${attr} must be true or false, not ${JSON.stringify(value)}`);
}

/** Names are truncated to 30 characters (spec); empty means unset. */
export function toName(value: unknown, attr: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new ScimError('invalidValue', `${attr} must be a string`);
  const truncated = Array.from(value).slice(0, NAME_MAX).join('');
  return truncated === '' ? null : truncated;
}

/** userName and email are stored lowercased (spec), so uniqueness is case-insensitive. */
export function toEmail(value: unknown, attr: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ScimError('invalidValue', `${attr} must be a non-empty string`);
  return value.trim().toLowerCase();
}

/** The value of the entry flagged primary in an emails array (or a lone object), if any. */
export function primaryEmail(emails: unknown): string | undefined {
  const entries = Array.isArray(emails) ? emails : isObject(emails) ? [emails] : [];
  for (const e of entries) {
    if (!isObject(e)) continue;
    const primary = getCI(e, 'primary');
    if (primary === undefined || primary === null) continue;
    if (toBoolean(primary, 'emails.primary')) return toEmail(getCI(e, 'value'), 'emails.value');
  }
  return undefined;
}

/**
 * An `emails` value without an entry flagged primary (RFC 7643 §2.4: then no address is preferred).
 * This service stores one address, so such an array is accepted when it names no other address than
 * the one that will be stored (userName, or the current address for PATCH), and refused otherwise:
 * POST, PUT and PATCH alike never silently drop an address (decision 0052).
 */
export function checkEmailsWithoutPrimary(emails: unknown, stored: string): void {
  const entries = Array.isArray(emails) ? emails : [emails];
  for (const e of entries) {
    if (!isObject(e)) throw new ScimError('invalidValue', 'each emails entry must be an object with a value');
    const value = toEmail(getCI(e, 'value'), 'emails.value');
    if (value !== stored.toLowerCase()) {
      throw new ScimError(
        'invalidValue',
        'emails has no entry flagged primary and names an address other than the stored one: this service stores one address, so flag the one to store "primary": true',
      );
    }
  }
}

/**
 * The address stored as the user's sign-in email: userName or the primary email (spec) must be an
 * email address, or the service would store (and echo as `emails`) a value that is not one.
 */
export function toStoredEmail(value: string, attr: string): string {
  if (value.length > 320 || !isEmail(value)) {
    throw new ScimError(
      'invalidValue',
      `${attr} must be an email address: this service stores userName (or the primary email, when one is sent) as the user's sign-in email`,
    );
  }
  return value;
}
