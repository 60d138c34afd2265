import type { RegisteredClient } from '../clients/registered-client';
import { OAuthError } from '../oauth.errors';

/** RFC 6749 §3.3: space-delimited; every scope asked for must be the client's; none asked: its default. */
export function grantedScope(client: RegisteredClient, requested: string | undefined): string {
  if (requested === undefined || requested.trim() === '') {
    if (client.scopes.length === 0) throw new OAuthError('invalid_scope', 'the client has no scope');
    return client.scopes[0];
  }
  const asked = [...new Set(requested.split(' ').filter(Boolean))];
  const unknown = asked.filter((s) => !client.scopes.includes(s));
  if (unknown.length > 0) throw new OAuthError('invalid_scope', `scope ${unknown.join(' ')} is not available to this client`);
  return asked.join(' ');
}
