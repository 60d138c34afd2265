import { GROUP_SCHEMA } from '../scim.constants';
import { formatName, userLocation } from '../users/user.mapper';
import type { GroupRow, MemberRow } from './scim-groups.repository';

export function groupLocation(baseUrl: string, id: string): string {
  return `${baseUrl}/scim/v2/Groups/${id}`;
}

/** `members` undefined means they were not loaded (excludedAttributes=members): the key is left out. */
export function toScimGroup(row: GroupRow, members: MemberRow[] | undefined, baseUrl: string): Record<string, unknown> {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    // The client's own id for the group (RFC 7643 §3.1), returned only when it sent one.
    ...(row.externalId !== null ? { externalId: row.externalId } : {}),
    displayName: row.displayName,
    ...(members
      ? {
          members: members.map((m) => ({
            value: m.userId,
            display: formatName(m.firstName, m.lastName) ?? m.email,
            type: 'User',
            $ref: userLocation(baseUrl, m.userId),
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: groupLocation(baseUrl, row.id),
    },
  };
}
