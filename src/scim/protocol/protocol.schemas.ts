import { id, namedSchema, ref, str, time } from '../../api-docs/response-schema';
import { LIST_RESPONSE_SCHEMA, PATCH_OP_SCHEMA } from '../scim.constants';

/** meta of a SCIM resource (RFC 7643 §3.1), as served for `resourceType`. */
export const scimMeta = (resourceType: string) => ({
  type: 'object' as const,
  readOnly: true,
  properties: {
    resourceType: str(resourceType),
    created: time,
    lastModified: time,
    location: str(`https://id.example.com/scim/v2/${resourceType}s/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11`, { format: 'uri' }),
  },
});

/** The read-only id of a SCIM resource. */
export const scimId = { ...id, readOnly: true } as const;

/**
 * What a read or write answers with `attributes` or `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9):
 * the same resource with only schemas and id sure to be there. buildOpenApiDocument offers it
 * beside the full resource on every operation that takes those parameters.
 */
export function partialScim<S extends object>(full: S, kind: string) {
  return {
    ...full,
    description: `A ${kind} as returned with attributes or excludedAttributes: schemas and id always, any other attribute only when asked for (or not excluded).`,
    required: ['schemas', 'id'] as const,
  };
}

/** A ListResponse (RFC 7644 §3.4.2) of `resources`, with index or cursor (RFC 9865) paging. */
export function scimListResponse<const R extends object>(resources: R) {
  return {
    type: 'object' as const,
    required: ['schemas', 'totalResults', 'itemsPerPage', 'Resources'] as const,
    properties: {
      schemas: { type: 'array', items: { type: 'string' }, example: [LIST_RESPONSE_SCHEMA] },
      totalResults: { type: 'integer', example: 1 },
      startIndex: { type: 'integer', example: 1, description: 'Index paging only.' },
      nextCursor: str('dToxNzk1Njg2NDY2MjIzMDAwLjNmMGM2YTUyLTJmNTktNGY4ZS05YTUxLTViMGY3ZDBjMmUxMQ', {
        description: 'Cursor paging (RFC 9865): the cursor of the next page; absent on the last page and with index paging.',
      }),
      itemsPerPage: { type: 'integer', example: 1 },
      Resources: resources,
    },
  } as const;
}

/**
 * The named schemas of a SCIM resource type: `Scim<kind>` as served, `Scim<kind>Partial` as a query
 * with `attributes` or `excludedAttributes` answers it (buildOpenApiDocument finds it by that name), and
 * `Scim<kind>List`, a ListResponse of either.
 */
export function scimResourceSchemas<const S extends object>(kind: 'User' | 'Group', full: S) {
  const resource = namedSchema(`Scim${kind}`, full);
  const partial = namedSchema(`Scim${kind}Partial`, partialScim(full, kind));
  const list = namedSchema(`Scim${kind}List`, scimListResponse({ type: 'array', items: { anyOf: [ref(resource), ref(partial)] } }));
  return { resource, partial, list };
}

export const ScimPatchRequestSchema = namedSchema('ScimPatchRequest', {
  type: 'object',
  description: 'RFC 7644 §3.5.2. Operation names are case-insensitive (Okta and Entra send "Replace", "Add").',
  required: ['Operations'],
  properties: {
    schemas: {
      type: 'array',
      items: { type: 'string' },
      example: [PATCH_OP_SCHEMA],
      description:
        'Optional (absent is accepted). When sent: an array of schema URNs that includes the PatchOp message URN (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.',
    },
    Operations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['op'],
        properties: {
          op: { type: 'string', enum: ['add', 'remove', 'replace', 'Add', 'Remove', 'Replace'], example: 'replace' },
          path: str('active', {
            description:
              'Attribute path, optionally with a filter: members[value eq "…"]. A path the server cannot read is 400 `invalidPath`.',
          }),
          value: { description: 'New value; without path, an object of attributes.', example: false },
        },
      },
    },
  },
});

export const ScimSearchRequestSchema = namedSchema('ScimSearchRequest', {
  type: 'object',
  description: 'RFC 7644 §3.4.3 SearchRequest: the list parameters of GET, in a body. Names are case-insensitive; all optional.',
  properties: {
    schemas: {
      type: 'array',
      items: { type: 'string' },
      example: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      description:
        'Optional (absent is accepted). When sent: an array of schema URNs that includes the SearchRequest message URN (any case); extension URNs are accepted. Otherwise 400 `invalidSyntax`.',
    },
    filter: str('userName sw "ada"'),
    startIndex: { type: 'integer', example: 1 },
    cursor: str('', { description: 'RFC 9865 cursor paging instead of startIndex: empty for the first page.' }),
    count: { type: 'integer', example: 10, description: 'Default 100, clamped to 0..200.' },
    attributes: { type: 'array', items: { type: 'string' }, example: ['userName', 'active'] },
    excludedAttributes: { type: 'array', items: { type: 'string' }, example: ['members'] },
  },
});
