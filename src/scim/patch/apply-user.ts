import { AttrPath } from '../filter/ast';
import { USER_ATTRS } from '../filter/attributes';
import { evaluateFilter } from '../filter/evaluate';
import { ScimError } from '../scim.errors';
import { getCI, isObject } from './normalize';
import { CanonicalOp, UserPatchAttr } from './patch-op';
import { primaryEmail, toBoolean, toEmail, toName } from './values';

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
        // Removing active is meaningless for a stored boolean; keep it.
        if (op.op !== 'remove') next.isActive = toBoolean(op.value, 'active');
        break;
      case 'emails.value':
        if (op.op !== 'remove') primary = toEmail(op.value, 'emails.value');
        break;
      case 'emails':
        primary = emailsOp(op, primary ?? userName ?? current.email) ?? primary;
        break;
    }
  }
  next.email = primary ?? userName ?? current.email;
  return next;
}

/**
 * The one stored address is exposed as {value, type: "work", primary: true}. A value
 * filter that matches it targets it; one that does not (type eq "home") would create
 * an address we do not store, so it is a no-op. The address cannot be removed.
 */
function emailsOp(op: CanonicalOp<UserPatchAttr>, email: string): string | undefined {
  if (op.op === 'remove') return undefined;
  if (!op.filter) return primaryEmail(op.value);
  const entry = { value: email, type: 'work', primary: true };
  let hit: boolean;
  try {
    hit = evaluateFilter({ type: 'valuePath', path: EMAILS, filter: op.filter }, { emails: [entry] }, USER_ATTRS);
  } catch (e) {
    if (e instanceof ScimError) throw new ScimError('invalidPath', `emails value filter: ${e.message}`);
    throw e;
  }
  if (!hit) return undefined;
  if (op.sub === 'value') return toEmail(op.value, 'emails.value');
  if (op.sub === undefined && isObject(op.value) && getCI(op.value, 'value') !== undefined) {
    return toEmail(getCI(op.value, 'value'), 'emails.value');
  }
  return undefined;
}
