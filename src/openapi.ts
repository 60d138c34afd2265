import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { SCHEMA_EXAMPLES } from './api-docs/examples';
import { declaredSchemas } from './api-docs/response-schema';
import { applyValidationRules, applyValidationRulesToQueries } from './api-docs/validation-rules';
import type { ErrorSurface } from './common/error-surface';
import { RouteSurfaces } from './common/route-surfaces';

const DESCRIPTION = `SCIM 2.0 server, SAML 2.0 identity provider, email verification, sign-in anomaly detection, audit log and managed databases.

**Credentials.** The dashboard API (\`/developer/…\`, \`/e/v1/developer/…\`) takes a developer session cookie (from \`POST /developer/auth/login/\`; writes then need the \`X-CSRF-Token\` header) or a developer access token (\`Authorization: Bearer dat_…\`, no CSRF header). SCIM (\`/scim/v2/…\`) takes a workspace SCIM token (\`Bearer scim_…\`). End-user routes take the access token from \`POST /e/v1/auth/login/\`. Every token is opaque: send it as it is, never parse it.

**Errors.** Outside SCIM every error is \`{"error": "<snake_case_code>", "message": "…", "details"?: {…}}\`: branch on \`error\`. SCIM routes answer RFC 7644's error body (\`application/scim+json\`). Besides the statuses listed per operation, any route can answer 503 \`service_unavailable\` (with \`Retry-After\`) while the database is unreachable, and 500 \`internal_error\` with a \`request_id\` to quote.

**Requests.** JSON bodies; unknown fields are rejected with 400 \`validation_failed\` (SCIM accepts and ignores them). Every response carries \`X-Request-Id\`. A method a path does not support is 405 with an \`Allow\` header. U+0000 and unpaired surrogates in any body, URL, cookie or header are 400 (SCIM: \`invalidValue\`). Paths end with a slash as shown (the same path without it is served too); SCIM paths have none.`;

type Kind = 'developer' | 'scim' | 'end-user' | 'ssf' | 'public';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const WRITES = new Set(['put', 'post', 'delete', 'patch']);

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Identity, directory-sync and security service')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .addServer('/', 'This service (paths are relative to the address it is reached at)')
    .addCookieAuth(
      'sid',
      {
        type: 'apiKey',
        in: 'cookie',
        name: 'sid',
        description:
          'Developer session cookie set by POST /developer/auth/login/ (HttpOnly, SameSite=Lax). Cookie-authenticated POST/PUT/PATCH/DELETE must send X-CSRF-Token with the csrf_token of the login answer.',
      },
      'developer-session',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'Developer access token `dat_…` (opaque) from POST /developer/tokens/. No CSRF header needed.',
      },
      'developer-token',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description:
          'Workspace SCIM token `scim_…` (opaque) from POST /developer/scim/tokens/, or the access token a SCIM OAuth client gets from POST /oauth/token.',
      },
      'scim-token',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description:
          'End-user access token (opaque; expires after `expires_in` seconds) from POST /e/v1/auth/login/ or /e/v1/auth/token/refresh/.',
      },
      'end-user-token',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: "An application's access token from POST /oauth/token (the authorization-code flow of OpenID Connect), for UserInfo.",
      },
      'application-access-token',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description:
          "A Shared Signals receiver's access token from POST /oauth/token (client_credentials, scope `ssf`), for the stream management and poll endpoints.",
      },
      'ssf-receiver-token',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config);
  applyValidationRules(document.components?.schemas ?? {});
  applyValidationRulesToQueries(Object.values(document.paths).flatMap((item) => METHODS.flatMap((m) => (item[m] ? [item[m]] : []))));
  for (const [name, example] of Object.entries(SCHEMA_EXAMPLES)) {
    const schema = document.components?.schemas?.[name];
    if (schema && !('$ref' in schema)) schema.example = example;
  }
  // The named bodies each feature declares beside its views (src/api-docs/response-schema.ts), by name.
  const declared = Object.entries(declaredSchemas()).sort(([a], [b]) => (a < b ? -1 : 1));
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...Object.fromEntries(declared) } };
  // Nest labels every bearer scheme "JWT"; ours are opaque strings a client must not parse.
  for (const scheme of Object.values(document.components.securitySchemes ?? {})) if ('bearerFormat' in scheme) delete scheme.bearerFormat;
  const surfaces = app.get(RouteSurfaces);
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) {
        addSharedErrors(op, surfaces.forOperation(op.operationId), kindOf(op), WRITES.has(method), document.components?.schemas ?? {});
      }
      if (op) allowProjections(op, document.components?.schemas ?? {});
    }
  }
  document.paths = Object.fromEntries(Object.entries(document.paths).map(([path, item]) => [asServed(path), item]));
  return document;
}

/** Routes outside SCIM and the probes are written with the trailing slash their clients use. */
function asServed(path: string): string {
  if (['/scim/v2', '/health', '/oauth/', '/.well-known/', '/ssf/'].some((p) => path.startsWith(p)) || path.endsWith('/')) return path;
  return `${path}/`;
}

function kindOf(op: OperationObject): Kind {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.includes('scim-token')) return 'scim';
  if (schemes.includes('developer-token')) return 'developer';
  if (schemes.includes('end-user-token')) return 'end-user';
  if (schemes.includes('ssf-receiver-token')) return 'ssf';
  return 'public';
}

/** The HTTP pipeline refuses text PostgreSQL cannot store before routing, on every route (decision 0030). */
const URL_PROBLEM = 'The URL or a cookie contains U+0000 or an unpaired UTF-16 surrogate';
const BUDGET_REFUSAL =
  'The {tenant} is over its request budget (TENANT_RATE_PER_SECOND) or has TENANT_MAX_IN_FLIGHT requests in flight; retry after the Retry-After header (RateLimit and RateLimit-Policy headers say what is left)';

/** The answers every route of a kind shares, in the error format of its surface, so each route documents only its own. */
function addSharedErrors(op: OperationObject, surface: ErrorSurface, kind: Kind, write: boolean, schemas: Record<string, unknown>): void {
  const body = op.requestBody && 'content' in op.requestBody ? op.requestBody.content : {};
  const hasJsonBody = Object.keys(body).some((type) => type.includes('json'));
  const hasOtherBody = Object.keys(body).length > 0 && !hasJsonBody;
  const query = (op.parameters ?? []).filter((p) => 'in' in p && p.in === 'query').map((p) => ('name' in p ? p.name : ''));
  if (surface === 'scim') {
    addScimError(op, 401, '', 'The bearer SCIM token is missing, unknown, expired or revoked');
    addScimError(op, 429, '', BUDGET_REFUSAL.replace('{tenant}', 'workspace'));
    if (hasJsonBody) {
      addScimError(op, 400, 'invalidSyntax', 'The body is not a JSON object');
      addScimError(op, 413, 'tooLarge', 'The body is larger than BODY_LIMIT');
    }
    addScimError(op, 400, 'invalidValue', URL_PROBLEM);
    return;
  }
  if (surface === 'page') {
    addPage(op, 400, URL_PROBLEM);
    if (hasOtherBody) addPage(op, 413, 'The body is larger than BODY_LIMIT');
    return;
  }
  if (kind === 'developer') addError(op, 401, 'unauthorized', 'No developer session cookie or access token, or it expired or was revoked');
  if (kind === 'developer') addError(op, 429, 'rate_limited', BUDGET_REFUSAL.replace('{tenant}', 'developer account'));
  if (kind === 'developer' && write) addError(op, 403, 'csrf_failed', 'Cookie-authenticated write without the X-CSRF-Token of the session');
  if (kind === 'end-user') addError(op, 401, 'unauthorized', 'The bearer access token is missing, invalid, expired or revoked');
  if (kind === 'ssf') {
    addError(op, 401, 'unauthorized', "The receiver's access token is missing, invalid, expired, or its receiver was deleted");
  }
  if (query.length > 0) {
    const [field] = query;
    addExample(
      op,
      400,
      'application/json',
      'Error',
      'validation_failed_query',
      { error: 'validation_failed', message: `Invalid request: check ${field}`, details: { [field]: [`${field} is not valid`] } },
      '`validation_failed`: a query parameter is missing, malformed or out of range; details names each one',
    );
  }
  if (hasJsonBody) {
    const field = firstField(body, schemas);
    addExample(
      op,
      400,
      'application/json',
      'Error',
      'validation_failed',
      { error: 'validation_failed', message: `Invalid request: check ${field}`, details: { [field]: [`${field} must be a string`] } },
      '`validation_failed`: a field is missing, null where it may not be, has the wrong type, breaks a rule, or is unknown; details names each field and its problems',
    );
    addError(op, 400, 'invalid_body', 'The body is not valid JSON');
    addError(op, 413, 'payload_too_large', 'The body is larger than BODY_LIMIT');
  }
  addExample(
    op,
    400,
    'application/json',
    'Error',
    'invalid_url',
    { error: 'invalid_body', message: URL_PROBLEM },
    `\`invalid_body\`: ${URL_PROBLEM}`,
  );
}

/**
 * A SCIM operation that takes attributes/excludedAttributes answers the resource in part: its
 * success schema X becomes anyOf [X, XPartial] where XPartial exists (src/scim/protocol/protocol.schemas.ts).
 */
function allowProjections(op: OperationObject, schemas: Record<string, unknown>): void {
  if (!(op.parameters ?? []).some((p) => 'name' in p && p.name === 'attributes')) return;
  for (const [status, response] of Object.entries(op.responses)) {
    if (!status.startsWith('2') || !response || !('content' in response)) continue;
    for (const media of Object.values(response.content ?? {})) {
      const target = media.schema && '$ref' in media.schema ? media.schema.$ref : undefined;
      const partial = `${target ?? ''}Partial`;
      if (target && schemas[partial.split('/').pop() ?? '']) media.schema = { anyOf: [{ $ref: target }, { $ref: partial }] };
    }
  }
}

/** An HTML error page answer (browser pages), unless the route documents that status already. */
function addPage(op: OperationObject, status: number, when: string): void {
  if (op.responses[String(status)]) return;
  op.responses[String(status)] = { description: `HTML error page: ${when}`, content: { 'text/html': { schema: { type: 'string' } } } };
}

/** The first property of a JSON request body, to show a realistic validation error. */
function firstField(content: Record<string, { schema?: unknown }>, schemas: Record<string, unknown>): string {
  const schema = Object.values(content)[0]?.schema as { $ref?: string; properties?: Record<string, unknown> } | undefined;
  const resolved = (schema?.$ref ? schemas[schema.$ref.split('/').pop() ?? ''] : schema) as
    { properties?: Record<string, unknown> } | undefined;
  return Object.keys(resolved?.properties ?? {})[0] ?? 'name';
}

function addError(op: OperationObject, status: number, code: string, when: string): void {
  addExample(op, status, 'application/json', 'Error', code, { error: code, message: when }, `\`${code}\`: ${when}`);
}

function addScimError(op: OperationObject, status: number, scimType: string, when: string): void {
  const value = {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail: when,
  };
  addExample(
    op,
    status,
    'application/scim+json',
    'ScimError',
    scimType || `status${status}`,
    value,
    scimType ? `\`${scimType}\`: ${when}` : when,
  );
}

/** Adds one named example to the operation's response for this status, creating the response if needed. */
function addExample(op: OperationObject, status: number, type: string, schema: string, key: string, value: unknown, line: string): void {
  const existing = op.responses[String(status)] as ResponseObject | undefined;
  const response: ResponseObject = existing ?? { description: '', content: {} };
  const ref = { $ref: `#/components/schemas/${schema}` };
  const media = (response.content ??= {})[type] ?? { schema: ref, examples: {} };
  media.examples ??= {};
  if (media.examples[key]) return;
  // A route whose own errors have another shape (OAuth's {error, error_description}) can still
  // answer the shared ones in the common shape: the status then documents either.
  const alternatives = media.schema && 'anyOf' in media.schema ? (media.schema.anyOf ?? []) : [media.schema];
  if (!alternatives.some((s) => s && '$ref' in s && s.$ref === ref.$ref)) {
    media.schema = { anyOf: [...alternatives.filter(Boolean), ref] } as typeof media.schema;
  }
  media.examples[key] = { summary: line.replace(/`/g, ''), value };
  response.content[type] = media;
  response.description = response.description ? `${response.description}; ${line}` : line;
  op.responses[String(status)] = response;
}

/** OpenAPI at /openapi.json and the UI at /docs. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'openapi.json', raw: ['json'] });
}
