import type { UserState } from '../patch/apply-user';
import { USER_SCHEMA } from '../scim.constants';
import type { UserRow } from './scim-users.repository';

/** name.formatted: given and family joined by a space (spec); mirrors USER_FORMATTED_SQL. */
export function formatName(first: string | null, last: string | null): string | undefined {
  const joined = [first, last]
    .filter((s): s is string => !!s)
    .join(' ')
    .replace(/^ +| +$/g, '');
  return joined === '' ? undefined : joined;
}

export function userLocation(baseUrl: string, id: string): string {
  return `${baseUrl}/scim/v2/Users/${id}`;
}

/** The SCIM representation of a user (RFC 7643 §4.1 with the spec's rules). */
export function toScimUser(row: UserRow, baseUrl: string): Record<string, unknown> {
  const formatted = formatName(row.firstName, row.lastName);
  const name: Record<string, string> = {};
  if (row.firstName) name.givenName = row.firstName;
  if (row.lastName) name.familyName = row.lastName;
  if (formatted) name.formatted = formatted;
  return {
    schemas: [USER_SCHEMA],
    id: row.id,
    // The spec echoes our id so the identity provider can reconcile; a client value is not stored.
    externalId: row.id,
    userName: row.email,
    // An empty complex attribute is left out (RFC 7643 §2.5), not sent as "name": {}.
    ...(Object.keys(name).length ? { name } : {}),
    ...(formatted ? { displayName: formatted } : {}),
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: row.isActive,
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: userLocation(baseUrl, row.id),
    },
  };
}

/** The attributes a SCIM write changes, as the patch logic sees them ('' names read as absent). */
export function toState(row: UserRow): UserState {
  return { email: row.email, firstName: row.firstName || null, lastName: row.lastName || null, isActive: row.isActive };
}
