import { FilterNode } from '../filter/ast';

/** The attributes PATCH can change; everything else (id, meta, externalId, unstored) is dropped. */
export type UserPatchAttr = 'userName' | 'name.givenName' | 'name.familyName' | 'emails' | 'emails.value' | 'active';
export type GroupPatchAttr = 'displayName' | 'externalId' | 'members';

/** One operation after normalisation: lowercase op, canonical attribute, parsed value filter. */
export interface CanonicalOp<A extends string = string> {
  op: 'add' | 'replace' | 'remove';
  attr: A;
  /** `emails[type eq "work"]` -> the inner filter, relative to `attr`. */
  filter?: FilterNode;
  /** `emails[type eq "work"].value` -> 'value'. */
  sub?: string;
  value?: unknown;
}

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
