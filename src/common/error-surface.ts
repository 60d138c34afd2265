/**
 * The error format of a route (decision 0160), declared on its controller:
 * - `json`: `{error, message, details?}`, the default of every controller that declares nothing;
 * - `scim`: RFC 7644 §3.12's error body, `application/scim+json`;
 * - `oauth`: RFC 6749 §5.2's `{error, error_description}`, never cached (the token endpoint and its siblings);
 * - `page`: the shared HTML error page (pages a browser navigates to).
 */
export type ErrorSurface = 'json' | 'scim' | 'oauth' | 'page';

/** Metadata key of the surface a controller (or one handler) declares. */
export const ERROR_SURFACE = 'app:error-surface';

/**
 * Surfaces that own every path below their controller's mount: a SCIM client and a browser expect
 * their format for a path no route serves there. The OAuth format is the endpoints' own (RFC 6749
 * §5.2), so an unknown path beside them answers JSON.
 */
export const OWNS_PATHS_BELOW_ITS_MOUNT: ReadonlySet<ErrorSurface> = new Set(['scim', 'page']);
