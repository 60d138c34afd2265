import { namedSchema, str } from '../../api-docs/response-schema';
import { LIST_RESPONSE_SCHEMA } from '../scim.constants';
import { listOf, resourceType, serviceProviderConfig } from './discovery.documents';

/** The examples are the served documents themselves, for an example base URL. */
const EXAMPLE_BASE = 'https://id.example.com';

export const ScimDiscoveryListSchema = namedSchema('ScimDiscoveryList', {
  type: 'object',
  description: 'ListResponse of ResourceType or Schema documents (RFC 7644 §4).',
  required: ['schemas', 'totalResults', 'Resources'],
  properties: {
    schemas: { type: 'array', items: { type: 'string' }, example: [LIST_RESPONSE_SCHEMA] },
    totalResults: { type: 'integer', example: 2 },
    startIndex: { type: 'integer', example: 1 },
    itemsPerPage: { type: 'integer', example: 2 },
    Resources: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
  example: listOf([resourceType(EXAMPLE_BASE, 'User'), resourceType(EXAMPLE_BASE, 'Group')]),
});

export const ScimDiscoveryDocumentSchema = namedSchema('ScimDiscoveryDocument', {
  type: 'object',
  description: 'A ServiceProviderConfig, ResourceType or Schema document (RFC 7643 §5–7).',
  required: ['schemas'],
  additionalProperties: true,
  properties: {
    schemas: { type: 'array', items: { type: 'string' }, example: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'] },
    id: str('User'),
    meta: { type: 'object', additionalProperties: true },
  },
  example: serviceProviderConfig(EXAMPLE_BASE),
});
