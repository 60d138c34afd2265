import { foreignKeyViolation } from '../common/db-errors';
import { DomainError } from '../common/errors';

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

const STATUS: Record<ScimType, number> = {
  invalidFilter: 400,
  invalidValue: 400,
  invalidSyntax: 400,
  invalidPath: 400,
  noTarget: 400,
  mutability: 400,
  tooMany: 400,
  uniqueness: 409,
  invalidCursor: 400,
};

/**
 * A SCIM protocol error. `code` is the scimType so callers and tests can match on it;
 * the global filter renders status, scimType and detail on /scim/v2 routes.
 */
export class ScimError extends DomainError {
  constructor(
    override readonly scimType: ScimType,
    detail: string,
  ) {
    super(scimType, detail, { status: STATUS[scimType], scimType });
    this.name = 'ScimError';
  }

  /** 404 carries no scimType (RFC 7644 §3.12 only defines them for 400 and 409). */
  static notFound(resource: 'User' | 'Group', id: string): DomainError {
    return new DomainError('not_found', `${resource} ${id} not found`);
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
      'unauthorized',
      'Invalid, expired or revoked credentials: the SCIM token was revoked (its workspace was deleted)',
    );
  }
  throw err;
}
