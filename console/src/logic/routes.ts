/** The console's routes, under /console/. */
export const BASE = '/console';

export const WORKSPACE_SECTIONS = [
  { id: 'scim', label: 'SCIM' },
  { id: 'directory', label: 'Directory' },
  { id: 'events', label: 'Events' },
  { id: 'saml', label: 'SAML' },
  { id: 'sso', label: 'SSO connections' },
  { id: 'applications', label: 'Applications' },
  { id: 'audit', label: 'Audit log' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'ssf', label: 'Shared Signals' },
  { id: 'databases', label: 'Databases' },
  { id: 'members', label: 'Members' },
  { id: 'templates', label: 'Email templates' },
  // Shown only where the server has it (development, mail written to files): see WorkspacePage.
  { id: 'mailbox', label: 'Mailbox' },
  { id: 'settings', label: 'Settings' },
] as const;

export type Section = (typeof WORKSPACE_SECTIONS)[number]['id'];

export type Route =
  | { page: 'signin'; next?: string; expired: boolean }
  | { page: 'signup' }
  | { page: 'workspaces' }
  | { page: 'tokens' }
  | { page: 'workspace'; workspaceId: string; section: Section; itemId?: string }
  | { page: 'not-found' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Route of a location's path and query string. */
export function matchRoute(pathname: string, search = ''): Route {
  if (!pathname.startsWith(BASE)) return { page: 'not-found' };
  const parts = pathname.slice(BASE.length).split('/').filter(Boolean);
  const query = new URLSearchParams(search);
  if (parts.length === 0) return { page: 'workspaces' };
  if (parts.length === 1 && parts[0] === 'signin') {
    return { page: 'signin', next: safeNext(query.get('next')), expired: query.get('expired') === '1' };
  }
  if (parts.length === 1 && parts[0] === 'signup') return { page: 'signup' };
  if (parts.length === 1 && parts[0] === 'tokens') return { page: 'tokens' };
  if (parts[0] === 'w' && parts.length >= 2 && parts.length <= 3 && UUID.test(parts[1])) {
    const section = parts[2] ?? 'scim';
    const known = WORKSPACE_SECTIONS.find((s) => s.id === section);
    if (known) return { page: 'workspace', workspaceId: parts[1].toLowerCase(), section: known.id };
  }
  // One SSO connection's own page (a link others can be sent).
  if (parts[0] === 'w' && parts.length === 4 && UUID.test(parts[1]) && parts[2] === 'sso' && UUID.test(parts[3])) {
    return { page: 'workspace', workspaceId: parts[1].toLowerCase(), section: 'sso', itemId: parts[3].toLowerCase() };
  }
  return { page: 'not-found' };
}

/** A `next` parameter is followed only to a page of the console itself (never another site). */
export function safeNext(next: string | null | undefined): string | undefined {
  if (!next) return undefined;
  if (!next.startsWith(`${BASE}/`) || next.startsWith('//') || next.includes('\\')) return undefined;
  try {
    const url = new URL(next, 'http://console.invalid');
    if (url.origin !== 'http://console.invalid' || !url.pathname.startsWith(`${BASE}/`)) return undefined;
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}

/** Where session expiry sends the person: sign-in, then back to `here`. */
export function signInPath(here: string, expired: boolean): string {
  const next = safeNext(here);
  const query = new URLSearchParams();
  if (next && !next.startsWith(`${BASE}/signin`) && !next.startsWith(`${BASE}/signup`)) query.set('next', next);
  if (expired) query.set('expired', '1');
  const qs = query.toString();
  return `${BASE}/signin${qs ? `?${qs}` : ''}`;
}

export const workspacePath = (workspaceId: string, section: Section = 'scim') => `${BASE}/w/${workspaceId}/${section}`;

export const connectionPath = (workspaceId: string, connectionId: string) => `${workspacePath(workspaceId, 'sso')}/${connectionId}`;
