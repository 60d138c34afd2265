import { randomBytes, randomInt } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * 32 characters of base64url (192 bits): only [A-Za-z0-9_-], all unreserved in
 * URLs, so a connection string carries it verbatim and no client mis-parses it.
 */
export function generatePassword(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * A name that is a valid unquoted identifier on every engine (Postgres database and
 * role, Redis ACL user and key prefix, MongoDB database): a readable slug of the
 * display name plus 10 random characters so names never collide across workspaces
 * or app instances sharing one engine.
 */
export function generateDbName(displayName: string): string {
  const slug = displayName
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 24)
    .replace(/_+$/g, '');
  const suffix = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${/^[a-z]/.test(slug) ? slug : `db${slug ? '_' + slug : ''}`}_${suffix}`;
}

/** The engine user that owns a database. */
export function usernameFor(dbName: string): string {
  return `u_${dbName}`;
}

/** Names we generate; anything else is refused before it reaches an engine command. */
export const SAFE_NAME = /^[a-z][a-z0-9_]{0,50}$/;
export const SAFE_PASSWORD = /^[A-Za-z0-9_-]{16,128}$/;

export function assertSafeName(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`unsafe engine object name: ${JSON.stringify(name)}`);
  return name;
}

export function assertSafePassword(password: string): string {
  if (!SAFE_PASSWORD.test(password)) throw new Error('generated password has an unexpected shape');
  return password;
}
