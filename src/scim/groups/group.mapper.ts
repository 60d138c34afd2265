import { GROUP_SCHEMA } from '../scim.constants';
import { formatName, userLocation } from '../users/user.mapper';

export interface GroupRow {
  id: string;
  display_name: string;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow {
  group_id: string;
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
}

export function groupLocation(baseUrl: string, id: string): string {
  return `${baseUrl}/scim/v2/Groups/${id}`;
}

/** `members` undefined means they were not loaded (excludedAttributes=members): the key is left out. */
export function toScimGroup(row: GroupRow, members: MemberRow[] | undefined, baseUrl: string): Record<string, unknown> {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    displayName: row.display_name,
    ...(members
      ? {
          members: members.map((m) => ({
            value: m.user_id,
            display: formatName(m.first_name, m.last_name) ?? m.email,
            type: 'User',
            $ref: userLocation(baseUrl, m.user_id),
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: row.created_at.toISOString(),
      lastModified: row.updated_at.toISOString(),
      location: groupLocation(baseUrl, row.id),
    },
  };
}
