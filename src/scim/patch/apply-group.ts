import { isUuid } from '../../common/ids';
import { FilterNode } from '../filter/ast';
import { ScimError } from '../scim.errors';
import { getCI, isObject } from './normalize';
import { CanonicalOp, GroupPatchAttr } from './patch-op';

/**
 * Membership changes as row-level steps, run in order inside one transaction, so a
 * concurrent PATCH never loses members to a read-modify-write of the whole list.
 */
export type MemberStep =
  | { kind: 'add'; userIds: string[] }
  | { kind: 'remove'; userIds: string[] }
  | { kind: 'removeWhere'; filter: FilterNode }
  | { kind: 'removeAll' }
  | { kind: 'replace'; userIds: string[] };

export interface GroupChange {
  displayName?: string;
  /** undefined keeps the stored value; null clears it. */
  externalId?: string | null;
  members: MemberStep[];
}

export function applyGroupPatch(ops: CanonicalOp<GroupPatchAttr>[]): GroupChange {
  const change: GroupChange = { members: [] };
  for (const op of ops) {
    if (op.attr === 'displayName') {
      if (op.op === 'remove') throw new ScimError('mutability', 'displayName is required and cannot be removed');
      change.displayName = toDisplayName(op.value);
    } else if (op.attr === 'externalId') {
      change.externalId = op.op === 'remove' ? null : toExternalId(op.value);
    } else {
      const step = memberStep(op);
      if (step) change.members.push(step);
    }
  }
  return change;
}

function memberStep(op: CanonicalOp<GroupPatchAttr>): MemberStep | undefined {
  if (op.filter) {
    // members[value eq "…"]: RFC 7644 §3.5.2.2. add/replace through a filter would change a member's
    // value, which is immutable (RFC 7643 §4.2): refused rather than answered 200 with nothing done.
    if (op.op === 'remove') return { kind: 'removeWhere', filter: op.filter };
    throw new ScimError(
      'invalidPath',
      `${op.op} with a members value filter cannot change a member; add the new member with path "members"`,
    );
  }
  if (op.op === 'remove') {
    // Entra's legacy form: path "members" with a value array removes only those members.
    return op.value === undefined || op.value === null ? { kind: 'removeAll' } : { kind: 'remove', userIds: memberIds(op.value) };
  }
  return { kind: op.op === 'add' ? 'add' : 'replace', userIds: memberIds(op.value) };
}

/**
 * Member ids from [{value}], a lone {value}, or bare id strings. An entry that names no id (not an object
 * with a string `value`, a value that is not a user id) is refused, never dropped: the client would believe
 * the member added (decision 0213). A well-formed id of no user of the workspace is skipped (documented).
 */
export function memberIds(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const ids = items.map((entry, i) => {
    const id = isObject(entry) ? getCI(entry, 'value') : entry;
    if (isUuid(id)) return id;
    const what = isObject(entry) ? `members[${i}].value` : `members[${i}]`;
    throw new ScimError('invalidValue', `${what} must be the id of a user (a UUID), as {"value": "<id>"}`);
  });
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/** The client's externalId: a string kept as sent (caseExact, RFC 7643 §3.1); null or "" clears it. */
export function toExternalId(value: unknown): string | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'string') throw new ScimError('invalidValue', 'externalId must be a string');
  if (value.length > EXTERNAL_ID_MAX) throw new ScimError('invalidValue', `externalId must be at most ${EXTERNAL_ID_MAX} characters`);
  return value;
}

export const EXTERNAL_ID_MAX = 1024;

export function toDisplayName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ScimError('invalidValue', 'displayName must be a non-empty string');
  return value.trim();
}
