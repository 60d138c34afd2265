import { allRequiredSchema, id, namedSchema, pageSchema, str } from '../api-docs/response-schema';
import { DIRECTORY_EVENT_TYPES } from '../events/domain-events';

export const DirectoryEventSchema = namedSchema('DirectoryEvent', {
  type: 'object',
  description: 'One directory change (docs/events.md). data is the object as it was at that moment.',
  required: ['id', 'seq', 'type', 'workspace_id', 'occurred_at', 'data'],
  properties: {
    id,
    seq: {
      type: 'integer',
      format: 'int64',
      example: 42,
      description: "Position in the workspace's feed: strictly increasing, never filled in below a value already returned.",
    },
    type: { type: 'string', enum: [...DIRECTORY_EVENT_TYPES], example: 'directory.user.updated' },
    workspace_id: id,
    occurred_at: str('2026-12-07T05:30:00.123456Z', {
      format: 'date-time',
      description: 'When the change was made (its transaction began).',
    }),
    data: {
      type: 'object',
      additionalProperties: true,
      description:
        'User events: the user as GET /scim/v2/Users/{id} showed it then. Group events: the group as GET /scim/v2/Groups/{id} showed it, without members. Membership events: {group: {id, displayName}, user: {id, userName}}.',
      example: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        id: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
        userName: 'ada@example.com',
        active: true,
      },
    },
    changed: {
      type: 'array',
      items: { type: 'string' },
      example: ['name.familyName'],
      description: 'Updated, deactivated, reactivated and group-updated events only: the SCIM attributes the change set.',
    },
  },
});

export const DirectoryEventPageSchema = pageSchema('DirectoryEventPage', DirectoryEventSchema, {
  next_after: {
    type: 'integer',
    format: 'int64',
    example: 42,
    description: 'Pass as `after` to read on: the seq of the last event of this page, or `after` itself when the page is empty.',
  },
});

export const DirectorySnapshotSchema = allRequiredSchema('DirectorySnapshot', {
  type: 'object',
  description:
    'The whole directory, read in one snapshot, and the feed position it reflects: every event up to seq is in it. Continue with GET /developer/events/?after=seq (an event after seq may repeat a change the snapshot already shows; apply events as upserts).',
  example: {
    seq: 42,
    users: [
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        id: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
        externalId: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
        userName: 'ada@example.com',
        emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
        active: true,
        meta: {
          resourceType: 'User',
          created: '2026-12-07T05:29:58.001Z',
          lastModified: '2026-12-07T05:30:00.123Z',
          location: 'https://id.example.com/scim/v2/Users/8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
        },
      },
    ],
    groups: [
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        id: 'c1d2e3f4-0000-4000-8000-000000000001',
        displayName: 'Engineering',
        meta: {
          resourceType: 'Group',
          created: '2026-12-07T05:29:59.000Z',
          lastModified: '2026-12-07T05:30:01.000Z',
          location: 'https://id.example.com/scim/v2/Groups/c1d2e3f4-0000-4000-8000-000000000001',
        },
      },
    ],
    memberships: [{ group_id: 'c1d2e3f4-0000-4000-8000-000000000001', user_id: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13' }],
  },
  properties: {
    seq: { type: 'integer', format: 'int64', example: 42 },
    users: { type: 'array', items: { type: 'object', additionalProperties: true }, description: 'As GET /scim/v2/Users/{id} shows them.' },
    groups: {
      type: 'array',
      items: { type: 'object', additionalProperties: true },
      description: 'As GET /scim/v2/Groups/{id} shows them, without members.',
    },
    memberships: {
      type: 'array',
      items: { type: 'object', required: ['group_id', 'user_id'], properties: { group_id: id, user_id: id } },
    },
  },
});
