import { COMMON_ERRORS } from '../common/common.errors';
import { foreignKeyViolation } from '../common/db-errors';
import { DomainError, errorCatalog } from '../common/errors';

/** RFC 7644 §3.12 scimType values this server emits, and RFC 9865's invalidCursor. */
export type ScimType =
  | 'invalidFilter'
  | 'invalidValue'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'mutability'
  | 'tooMany'
  | 'uniqueness'
  | 'invalidCursor';

/**
 * SCIM's codes: on /scim/v2 the code is the scimType (RFC 7644 §3.12); the SCIM clients and tokens
 * the dashboard manages add theirs. not_found and unauthorized are COMMON_ERRORS.
 */
export const SCIM_ERRORS = errorCatalog('scim', {
  invalidFilter: 400,
  invalidValue: 400,
  invalidSyntax: 400,
  invalidPath: 400,
  noTarget: 400,
  mutability: 400,
  tooMany: 400,
  uniqueness: 409,
  invalidCursor: 400,
  client_revoked: 409,
  too_many_secrets: 409,
} satisfies Record<ScimType, number> & Record<string, number>);

/**
 * A SCIM protocol error. `code` is the scimType so callers and tests can match on it;
 * the SCIM surface's filter renders status, scimType and detail.
 */
export class ScimError extends DomainError {
  constructor(
    override readonly scimType: ScimType,
    detail: string,
  ) {
    super(SCIM_ERRORS[scimType], detail, { scimType });
    this.name = 'ScimError';
  }

  /** 404 carries no scimType (RFC 7644 §3.12 only defines them for 400 and 409). */
  static notFound(resource: 'User' | 'Group', id: string): DomainError {
    return new DomainError(COMMON_ERRORS.not_found, `${resource} ${id} not found`);
  }
}

/**
 * A SCIM write that lost a race with the deletion of its workspace: the insert's foreign key to
 * workspaces (or to a row the deletion cascaded away) no longer holds. The token went with the
 * workspace, so the caller hears what it would have heard a moment later: 401, never a 500.
 */
export function rethrowWorkspaceGone(err: unknown): never {
  const fk = foreignKeyViolation(err);
  if (fk && (fk.constraint === undefined || fk.constraint.endsWith('_workspace_id_fkey'))) {
    throw new DomainError(
      COMMON_ERRORS.unauthorized,
      'Invalid, expired or revoked credentials: the SCIM token was revoked (its workspace was deleted)',
    );
  }
  throw err;
}
