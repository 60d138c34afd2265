import { AttrPath } from '../filter/ast';
import { USER_ATTRS } from '../filter/attributes';
import { evaluateFilter } from '../filter/evaluate';
import { ScimError } from '../scim.errors';
import { getCI, isObject } from './normalize';
import { CanonicalOp, UserPatchAttr } from './patch-op';
import { checkEmailsWithoutPrimary, primaryEmail, toBoolean, toEmail, toName, toStoredEmail } from './values';

/** The stored part of a SCIM user. */
export interface UserState {
  email: string;
  firstName: string | null;
  lastName: string | null;
  isActive: boolean;
}

const EMAILS: AttrPath = { attr: 'emails' };

/**
 * Applies canonical PATCH operations to a user. userName and the primary email share
 * one stored column: when a request touches both, the primary email wins (spec);
 * a request that touches only userName renames the user.
 */
export function applyUserPatch(current: UserState, ops: CanonicalOp<UserPatchAttr>[]): UserState {
  const next = { ...current };
  let userName: string | undefined;
  let primary: string | undefined;
  for (const op of ops) {
    switch (op.attr) {
      case 'userName':
        if (op.op === 'remove') throw new ScimError('mutability', 'userName is required and cannot be removed');
        userName = toEmail(op.value, 'userName');
        break;
      case 'name.givenName':
        next.firstName = op.op === 'remove' ? null : toName(op.value, 'name.givenName');
        break;
      case 'name.familyName':
        next.lastName = op.op === 'remove' ? null : toName(op.value, 'name.familyName');
        break;
      case 'active':
        // A stored true/false has no "unassigned" state: answering 200 and keeping it would hide that nothing happened.
        if (op.op === 'remove') throw new ScimError('mutability', 'active cannot be removed; replace it with false to deactivate the user');
        next.isActive = toBoolean(op.value, 'active');
        break;
      case 'emails.value':
        if (op.op === 'remove') throw cannotRemoveEmail();
        primary = toEmail(op.value, 'emails.value');
        break;
      case 'emails':
        primary = emailsOp(op, primary ?? userName ?? current.email) ?? primary;
        break;
    }
  }
  if (primary !== undefined) next.email = toStoredEmail(primary, 'emails.value');
  else if (userName !== undefined) next.email = toStoredEmail(userName, 'userName');
  return next;
}

const cannotRemoveEmail = () =>
  new ScimError('mutability', "the user's one email address is its sign-in address and cannot be removed; replace it instead");

/**
 * The one stored address is exposed as {value, type: "work", primary: true}. An operation on
 * it changes that address or is refused (decision 0101): remove is `mutability` (the address
 * is the sign-in email); a value filter that matches no address is `noTarget` (RFC 7644
 * §3.5.2.3), since we would otherwise create an address we do not store; an array without an
 * entry flagged primary may only repeat the stored address (`invalidValue` otherwise); `type` and `primary` can
 * only be given the values they have.
 */
function emailsOp(op: CanonicalOp<UserPatchAttr>, email: string): string | undefined {
  if (op.op === 'remove') throw cannotRemoveEmail();
  if (!op.filter) {
    const primary = primaryEmail(op.value);
    // Without a primary entry: applied when it names only the address kept, refused otherwise (as POST and PUT).
    if (primary === undefined) checkEmailsWithoutPrimary(op.value, email);
    return primary;
  }
  const entry = { value: email, type: 'work', primary: true };
  let hit: boolean;
  try {
    hit = evaluateFilter({ type: 'valuePath', path: EMAILS, filter: op.filter }, { emails: [entry] }, USER_ATTRS);
  } catch (e) {
    if (e instanceof ScimError) throw new ScimError('invalidPath', `emails value filter: ${e.message}`);
    throw e;
  }
  if (!hit) {
    throw new ScimError('noTarget', 'the emails value filter matches no address: the user has one address, of type work and primary');
  }
  if (op.sub === 'value') return toEmail(op.value, 'emails.value');
  if (op.sub === undefined && isObject(op.value)) {
    const value = getCI(op.value, 'value');
    keepsFixed(getCI(op.value, 'type'), 'type', 'work');
    keepsFixed(getCI(op.value, 'primary'), 'primary', true);
    return value === undefined ? undefined : toEmail(value, 'emails.value');
  }
  if (op.sub === 'type') return keepsFixed(op.value, 'type', 'work');
  if (op.sub === 'primary') return keepsFixed(op.value, 'primary', true);
  throw new ScimError('invalidPath', `emails has no sub-attribute ${op.sub ?? '(none)'} that can be set`);
}

/** emails.type is always work and emails.primary always true: setting them to that is fine, anything else is refused. */
function keepsFixed(value: unknown, sub: 'type' | 'primary', fixed: string | boolean): undefined {
  if (value === undefined || value === null) return undefined;
  const same =
    typeof fixed === 'boolean' ? toBoolean(value, `emails.${sub}`) === fixed : typeof value === 'string' && value.toLowerCase() === fixed;
  if (!same) {
    throw new ScimError('invalidValue', `emails.${sub} is always ${String(fixed)}: the one stored address is the work, primary one`);
  }
  return undefined;
}
