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
  members: MemberStep[];
}

export function applyGroupPatch(ops: CanonicalOp<GroupPatchAttr>[]): GroupChange {
  const change: GroupChange = { members: [] };
  for (const op of ops) {
    if (op.attr === 'displayName') {
      if (op.op === 'remove') throw new ScimError('mutability', 'displayName is required and cannot be removed');
      change.displayName = toDisplayName(op.value);
    } else {
      const step = memberStep(op);
      if (step) change.members.push(step);
    }
  }
  return change;
}

function memberStep(op: CanonicalOp<GroupPatchAttr>): MemberStep | undefined {
  if (op.filter) {
    // members[value eq "…"]: RFC 7644 §3.5.2.2. add/replace through a filter names no new member.
    return op.op === 'remove' ? { kind: 'removeWhere', filter: op.filter } : undefined;
  }
  if (op.op === 'remove') {
    // Entra's legacy form: path "members" with a value array removes only those members.
    return op.value === undefined || op.value === null ? { kind: 'removeAll' } : { kind: 'remove', userIds: memberIds(op.value) };
  }
  return { kind: op.op === 'add' ? 'add' : 'replace', userIds: memberIds(op.value) };
}

/** Member ids from [{value}], a lone {value}, or bare strings. Non-UUIDs can never be members: dropped. */
export function memberIds(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const ids = items.map((m) => (isObject(m) ? getCI(m, 'value') : m)).filter(isUuid);
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

export function toDisplayName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ScimError('invalidValue', 'displayName must be a non-empty string');
  return value.trim();
}
