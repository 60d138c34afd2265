import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiQuery } from '@nestjs/swagger';
import { NoBody, ReturnsText } from '../../api-docs/decorators';
import { FORM } from '../../oauth/oauth.docs';

const LOCATION = {
  description: 'The redirect URI with code, state and iss, or with error; or the hosted login',
  schema: { type: 'string' as const },
};

/** What the authorization endpoint answers a browser: a redirect, or an HTML page (consent, or an error it may not redirect). */
export const authorizeResponses = () =>
  applyDecorators(
    NoBody(302, 'To the redirect URI (code or error), to the hosted login, or back here', { Location: LOCATION }),
    ReturnsText(200, 'text/html', 'The consent screen of a third-party application', '<!doctype html>…'),
    ReturnsText(
      400,
      'text/html',
      'Unknown client_id or an unregistered redirect_uri: an error page, nothing is redirected',
      '<!doctype html>…',
    ),
  );

type Param = { type: 'string'; description: string; maxLength: number; enum?: string[]; example?: string; pattern?: string };

/** The authorization request's parameters (OpenID Connect Core §3.1.2.1, RFC 7636), with the bounds the endpoint applies. */
export const AUTHORIZATION_PARAMETERS: Record<string, Param & { required?: boolean }> = {
  response_type: {
    type: 'string',
    enum: ['code'],
    maxLength: 16,
    required: true,
    description: 'Only `code` (the authorization-code flow).',
  },
  client_id: {
    type: 'string',
    maxLength: 200,
    required: true,
    example: 'cli_5f2b9c0e7a4d1e3f6a8b0c2d',
    description: "The application's client_id.",
  },
  redirect_uri: {
    type: 'string',
    maxLength: 2000,
    required: true,
    example: 'https://app.example.com/callback',
    description: 'Exactly one of the registered redirect URIs (an http loopback IP literal may use any port, RFC 8252 §7.3).',
  },
  scope: {
    type: 'string',
    maxLength: 512,
    required: true,
    example: 'openid email profile',
    description: 'Space-separated; must include `openid`. `profile`, `email`, `offline_access` are granted; other values are ignored.',
  },
  state: { type: 'string', maxLength: 1024, description: 'Returned unchanged with the answer.' },
  nonce: {
    type: 'string',
    maxLength: 512,
    description: 'Put in the ID token. Required when the request carries no PKCE (an application with require_pkce false).',
  },
  code_challenge: {
    type: 'string',
    maxLength: 128,
    pattern: '^[A-Za-z0-9_-]{43}$',
    description: "PKCE (RFC 7636): BASE64URL(SHA-256(code_verifier)). Required unless the application's require_pkce is false.",
  },
  code_challenge_method: { type: 'string', enum: ['S256'], maxLength: 8, description: 'Only S256.' },
  response_mode: { type: 'string', enum: ['query'], maxLength: 16, description: 'Only `query` (the default).' },
  prompt: {
    type: 'string',
    maxLength: 64,
    example: 'login',
    description: 'Space-separated: `none` (alone), `login`, `consent`, `select_account`.',
  },
  max_age: {
    type: 'string',
    pattern: '^\\d{1,9}$',
    maxLength: 9,
    example: '3600',
    description: 'Seconds since the last sign-in beyond which the person signs in again (0: always).',
  },
  login_hint: { type: 'string', maxLength: 254, description: 'The email to prefill on the hosted login.' },
  id_token_hint: {
    type: 'string',
    maxLength: 8192,
    description:
      'An ID token this server issued to the application (it may have expired): with prompt=none, login_required unless it names the person signed in.',
  },
  acr_values: {
    type: 'string',
    maxLength: 512,
    example: 'https://refeds.org/profile/mfa',
    description: 'Space-separated; the MFA profile asks for a second factor.',
  },
  display: { type: 'string', maxLength: 16, description: 'Accepted and ignored (one page layout for every display).' },
  ui_locales: { type: 'string', maxLength: 64, description: 'Accepted and ignored.' },
  claims_locales: { type: 'string', maxLength: 64, description: 'Accepted and ignored.' },
};

const schemaOf = ({ required: _required, description: _description, ...schema }: Param & { required?: boolean }) => schema;

/** GET /oauth/authorize's query. */
export const authorizeQuery = () =>
  applyDecorators(
    ...Object.entries(AUTHORIZATION_PARAMETERS).map(([name, p]) =>
      ApiQuery({ name, required: p.required ?? false, description: p.description, schema: schemaOf(p) }),
    ),
  );

const formSchema = (extra: Record<string, object> = {}, required: string[] = []) => ({
  type: 'object' as const,
  required: [...Object.entries(AUTHORIZATION_PARAMETERS).flatMap(([name, p]) => (p.required ? [name] : [])), ...required],
  properties: {
    ...Object.fromEntries(
      Object.entries(AUTHORIZATION_PARAMETERS).map(([name, p]) => [name, { ...schemaOf(p), description: p.description }]),
    ),
    ...extra,
  },
});

/** POST /oauth/authorize's form: the same parameters as the query of GET. */
export const authorizeForm = () => applyDecorators(ApiConsumes(FORM), ApiBody({ required: true, schema: formSchema() }));

/** The consent screen's form: the decision, its form token, and the authorization request it answers. */
export const consentForm = () =>
  applyDecorators(
    ApiConsumes(FORM),
    ApiBody({
      required: true,
      schema: formSchema(
        {
          decision: { type: 'string', enum: ['allow', 'deny'], description: 'The person’s answer.' },
          csrf_token: { type: 'string', maxLength: 512, description: 'The form token of the consent page.' },
        },
        ['decision', 'csrf_token'],
      ),
    }),
  );
