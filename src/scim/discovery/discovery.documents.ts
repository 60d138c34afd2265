import { GROUP_SCHEMA, LIST_RESPONSE_SCHEMA, USER_SCHEMA } from '../scim.constants';

/** RFC 7643 §5-7 discovery documents, describing exactly what this server stores. */
const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

interface AttrOpts {
  type?: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued?: boolean;
  required?: boolean;
  caseExact?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  returned?: 'always' | 'default' | 'never' | 'request';
  uniqueness?: 'none' | 'server' | 'global';
  description: string;
  subAttributes?: Record<string, unknown>[];
  referenceTypes?: string[];
  canonicalValues?: string[];
}

function attr(name: string, o: AttrOpts): Record<string, unknown> {
  return {
    name,
    type: o.type ?? 'string',
    multiValued: o.multiValued ?? false,
    description: o.description,
    required: o.required ?? false,
    ...(o.type === undefined || o.type === 'string' || o.type === 'reference' ? { caseExact: o.caseExact ?? false } : {}),
    mutability: o.mutability ?? 'readWrite',
    returned: o.returned ?? 'default',
    uniqueness: o.uniqueness ?? 'none',
    ...(o.subAttributes ? { subAttributes: o.subAttributes } : {}),
    ...(o.referenceTypes ? { referenceTypes: o.referenceTypes } : {}),
    ...(o.canonicalValues ? { canonicalValues: o.canonicalValues } : {}),
  };
}

const USER_ATTRIBUTES = [
  attr('userName', { required: true, uniqueness: 'server', description: "Stored as the user's email, lowercased; unique per workspace." }),
  attr('externalId', {
    mutability: 'readOnly',
    caseExact: true,
    description: "Always the user's id; a client-supplied value is not stored.",
  }),
  attr('name', {
    type: 'complex',
    description: "The user's name.",
    subAttributes: [
      attr('givenName', { description: 'Stored truncated to 30 characters.' }),
      attr('familyName', { description: 'Stored truncated to 30 characters.' }),
      attr('formatted', { mutability: 'readOnly', description: 'givenName and familyName joined by a space.' }),
    ],
  }),
  attr('displayName', { mutability: 'readOnly', description: 'Same as name.formatted.' }),
  attr('emails', {
    type: 'complex',
    multiValued: true,
    description: 'One stored address; the entry flagged primary overrides userName as the stored email.',
    subAttributes: [
      attr('value', { description: 'Email address.' }),
      attr('type', { canonicalValues: ['work'], description: 'Always work.' }),
      attr('primary', { type: 'boolean', description: 'Always true.' }),
    ],
  }),
  attr('active', { type: 'boolean', description: 'false deactivates the user without deleting it.' }),
];

const GROUP_ATTRIBUTES = [
  attr('displayName', { required: true, uniqueness: 'server', description: 'Group name; unique per workspace, case-insensitively.' }),
  attr('externalId', {
    caseExact: true,
    description: "The provisioning client's own id for the group, stored as sent (per workspace) and filterable with eq.",
  }),
  attr('members', {
    type: 'complex',
    multiValued: true,
    description: 'Users of the same workspace; ids of other users are not added.',
    subAttributes: [
      attr('value', { mutability: 'immutable', caseExact: true, description: 'The id of a User.' }),
      attr('display', { mutability: 'readOnly', description: "The member's name or email." }),
      attr('type', { mutability: 'readOnly', canonicalValues: ['User'], description: 'Always User.' }),
      attr('$ref', { type: 'reference', mutability: 'readOnly', referenceTypes: ['User'], description: 'URI of the User.' }),
    ],
  }),
];

export function serviceProviderConfig(baseUrl: string): Record<string, unknown> {
  return {
    schemas: [SPC_SCHEMA],
    documentationUri: `${baseUrl}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 200 },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    // RFC 9865 §4: both paging methods; index paging stays the default (what every client sends).
    pagination: {
      cursor: true,
      index: true,
      defaultPaginationMethod: 'index',
      defaultPageSize: 100,
      maxPageSize: 200,
    },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'Authorization: Bearer scim_… token minted for one workspace',
        specUri: 'https://www.rfc-editor.org/info/rfc6750',
        primary: true,
      },
      {
        type: 'oauth2',
        name: 'OAuth 2.0 client credentials',
        description: `Access token from ${baseUrl}/oauth/token (client credentials or JWT bearer) of a SCIM OAuth client of the workspace`,
        specUri: 'https://www.rfc-editor.org/info/rfc6749',
        documentationUri: `${baseUrl}/.well-known/oauth-authorization-server`,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/scim/v2/ServiceProviderConfig` },
  };
}

export function resourceType(baseUrl: string, name: 'User' | 'Group'): Record<string, unknown> {
  return {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: name,
    name,
    endpoint: `/${name}s`,
    description: name === 'User' ? 'User Account' : 'Group',
    schema: name === 'User' ? USER_SCHEMA : GROUP_SCHEMA,
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/scim/v2/ResourceTypes/${name}` },
  };
}

export function schema(baseUrl: string, urn: string): Record<string, unknown> | undefined {
  const isUser = urn.toLowerCase() === USER_SCHEMA.toLowerCase();
  if (!isUser && urn.toLowerCase() !== GROUP_SCHEMA.toLowerCase()) return undefined;
  const id = isUser ? USER_SCHEMA : GROUP_SCHEMA;
  return {
    schemas: [SCHEMA_SCHEMA],
    id,
    name: isUser ? 'User' : 'Group',
    description: isUser ? 'User Account' : 'Group',
    attributes: isUser ? USER_ATTRIBUTES : GROUP_ATTRIBUTES,
    meta: { resourceType: 'Schema', location: `${baseUrl}/scim/v2/Schemas/${id}` },
  };
}

export function listOf(resources: Record<string, unknown>[]): Record<string, unknown> {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
