import { ScimBody } from '../../api-docs/decorators';
import { id, namedSchema, ref, str } from '../../api-docs/response-schema';
import { scimId, scimMeta, scimResourceSchemas } from '../protocol/protocol.schemas';
import { GROUP_SCHEMA } from '../scim.constants';

export const ScimGroupMemberSchema = namedSchema('ScimGroupMember', {
  type: 'object',
  required: ['value'],
  properties: {
    value: { ...id, description: 'Id of a user of the same workspace.' },
    display: { ...str('Ada Lovelace'), readOnly: true },
    type: { ...str('User'), readOnly: true },
    $ref: { ...str('https://id.example.com/scim/v2/Users/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11', { format: 'uri' }), readOnly: true },
  },
});

const group = {
  type: 'object',
  required: ['schemas', 'id', 'displayName', 'meta'],
  properties: {
    schemas: { type: 'array', items: { type: 'string' }, example: [GROUP_SCHEMA] },
    id: scimId,
    displayName: str('Engineering'),
    members: {
      type: 'array',
      items: ref(ScimGroupMemberSchema),
      description: 'Left out with excludedAttributes=members.',
    },
    meta: scimMeta('Group'),
  },
} as const;

export const {
  resource: ScimGroupSchema,
  partial: ScimGroupPartialSchema,
  list: ScimGroupListSchema,
} = scimResourceSchemas('Group', group);

export const ScimGroupInputSchema = namedSchema('ScimGroupInput', {
  type: 'object',
  description:
    'displayName is unique in the workspace (409 `uniqueness`). Members are ids of users of the same workspace; a well-formed id of no user of the workspace is not added; an entry that is not `{"value": "<user id>"}` (or a bare id string) is 400 `invalidValue` and nothing changes.',
  required: ['displayName'],
  properties: {
    schemas: {
      type: 'array',
      items: { type: 'string' },
      example: [GROUP_SCHEMA],
      description:
        'Optional (absent is accepted). When sent: an array of schema URNs that includes the core Group schema (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.',
    },
    displayName: str('Engineering'),
    members: { type: 'array', items: { type: 'object', required: ['value'], properties: { value: id } } },
  },
});

/** The body of a group's POST and PUT, with its example. */
export const ScimGroupBody = () =>
  ScimBody(ScimGroupInputSchema, 'The group', {
    engineering: {
      summary: 'A group with one member',
      value: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Engineering',
        members: [{ value: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11' }],
      },
    },
  });
