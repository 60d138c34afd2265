import { ScimBody } from '../../api-docs/decorators';
import { id, namedSchema, str } from '../../api-docs/response-schema';
import { scimId, scimMeta, scimResourceSchemas } from '../protocol/protocol.schemas';
import { USER_SCHEMA } from '../scim.constants';

export const USER_EXAMPLE = {
  schemas: [USER_SCHEMA],
  id: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
  externalId: '8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
  userName: 'ada@example.com',
  name: { givenName: 'Ada', familyName: 'Lovelace', formatted: 'Ada Lovelace' },
  displayName: 'Ada Lovelace',
  emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
  active: true,
  meta: {
    resourceType: 'User',
    created: '2026-11-24T12:00:00.000Z',
    lastModified: '2026-11-24T12:00:00.000Z',
    location: 'https://id.example.com/scim/v2/Users/8a1e3c55-7d0b-4f2a-9c61-0e4b2d7f9a13',
  },
};

/** What a client may write of a user (POST and PUT), and reads back. */
const writableProperties = {
  schemas: {
    type: 'array',
    items: { type: 'string' },
    example: [USER_SCHEMA],
    description:
      'Optional (absent is accepted). When sent: an array of schema URNs that includes the core User schema (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.',
  },
  userName: str('ada@example.com', {
    description: 'The email address; unique in the workspace, case-insensitive (409 `uniqueness` when taken).',
  }),
  name: {
    type: 'object',
    properties: { givenName: str('Ada'), familyName: str('Lovelace'), formatted: { ...str('Ada Lovelace'), readOnly: true } },
  },
  emails: {
    type: 'array',
    description: 'The entry marked primary overrides userName as the stored email.',
    items: {
      type: 'object',
      required: ['value'],
      properties: { value: str('ada@example.com', { format: 'email' }), type: str('work'), primary: { type: 'boolean', example: true } },
    },
  },
  active: { type: 'boolean', example: true, description: 'false deactivates the user and ends their sessions.' },
} as const;

const user = {
  type: 'object',
  example: USER_EXAMPLE,
  required: ['schemas', 'id', 'userName', 'active', 'meta'],
  properties: {
    ...writableProperties,
    id: scimId,
    externalId: { ...id, readOnly: true, description: 'Echoes id: a client-sent externalId is not stored.' },
    displayName: { ...str('Ada Lovelace'), readOnly: true },
    meta: scimMeta('User'),
  },
} as const;

export const { resource: ScimUserSchema, partial: ScimUserPartialSchema, list: ScimUserListSchema } = scimResourceSchemas('User', user);

export const ScimUserInputSchema = namedSchema('ScimUserInput', {
  type: 'object',
  description:
    'POST creates, PUT replaces (attributes not sent keep their value). Attribute names are case-insensitive; password, externalId and unknown or extension attributes are accepted and ignored.',
  required: ['userName'],
  properties: writableProperties,
});

/** The body of a user's POST and PUT, with its example. */
export const ScimUserBody = () =>
  ScimBody(ScimUserInputSchema, 'The user', {
    okta: {
      summary: 'Okta-style create',
      value: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'ada@example.com',
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
        active: true,
      },
    },
  });
