import { applyDecorators, Controller } from '@nestjs/common';
import { ApiExcludeController, ApiTags } from '@nestjs/swagger';
import { Auth } from './auth/auth.decorator';
import { OAuthSurface, PageSurface, ScimSurface } from './surface.decorators';

/**
 * How a controller opens, by the kind of API it serves: its path, its OpenAPI tag, how every route
 * authenticates and, where the kind has one, its error surface (decision 1001). The developer API's is
 * `@DeveloperApi` (decision 0975). A route may still say `@Auth(…)` where it differs from its class.
 */

/** The OpenAPI tag, or `null` for a controller the document leaves out (pages, assets, the console). */
type Tag = string | null;
const tagged = (tag: Tag) => (tag === null ? ApiExcludeController() : ApiTags(tag));

/** RFC 7644 endpoints under /scim/v2: the SCIM error body, a SCIM bearer token on every route. */
export const ScimApi = (path: string) => applyDecorators(ApiTags('scim'), ScimSurface(), Controller(path), Auth('scim'));

/** The signed-in end user's own API: an end-user access token on every route. */
export const EndUserApi = (path: string, tag: string) => applyDecorators(ApiTags(tag), Controller(path), Auth('end-user'));

/** Routes anyone may call (documents, health, metadata); the JSON error body. */
export const PublicApi = (path: string, tag: Tag) => applyDecorators(tagged(tag), Controller(path), Auth('public'));

/** OAuth 2.0 / OpenID endpoints: RFC 6749 §5.2 errors; clients authenticate in the request, not by the guard. */
export const OAuthApi = (path: string, tag: string) => applyDecorators(ApiTags(tag), OAuthSurface(), Controller(path), Auth('public'));

/** Pages a browser navigates to: errors as the shared HTML error page; the page itself checks who signed in. */
export const BrowserPages = (path: string, tag: Tag) => applyDecorators(tagged(tag), PageSurface(), Controller(path), Auth('public'));
