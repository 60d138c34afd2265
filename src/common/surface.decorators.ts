import { applyDecorators, SetMetadata, UseFilters } from '@nestjs/common';
import { ERROR_SURFACE, ErrorSurface } from './error-surface';
import { SurfaceExceptionFilter } from './exception.filter';

/**
 * A controller's error format (decision 0160): the decorator records the surface (for errors raised
 * before routing and for the OpenAPI document, src/common/route-surfaces.ts) and binds the surface's
 * filter with @UseFilters, so the format follows the controller, never the URL. A controller that
 * declares none answers JSON.
 */
const FILTERS: Record<ErrorSurface, SurfaceExceptionFilter> = {
  scim: new SurfaceExceptionFilter('scim'),
  oauth: new SurfaceExceptionFilter('oauth'),
  page: new SurfaceExceptionFilter('page'),
  json: new SurfaceExceptionFilter('json'),
};
const surface = (name: ErrorSurface) => applyDecorators(SetMetadata(ERROR_SURFACE, name), UseFilters(FILTERS[name]));

/** RFC 7644 §3.12's error body, `application/scim+json`. */
export const ScimSurface = () => surface('scim');

/** RFC 6749 §5.2's `{error, error_description}` with Cache-Control: no-store. */
export const OAuthSurface = () => surface('oauth');

/** The shared HTML error page, for pages a browser navigates to. */
export const PageSurface = () => surface('page');

/**
 * `{error, message}` for one handler of a page controller that answers the page's own script (the
 * passkey options of the hosted sign-in and security pages): the handler's filter takes precedence
 * over the class's.
 */
export const JsonSurface = () => surface('json');
