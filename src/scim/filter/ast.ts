/**
 * AST of an RFC 7644 §3.4.2.2 filter. Attribute names keep the client's spelling (the
 * printer needs it for round trips); resolution is case-insensitive and happens in
 * attributes.ts, so the parser knows nothing about schemas.
 */
export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export const COMPARE_OPS: readonly CompareOp[] = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'];

export type FilterValue = string | number | boolean | null;

/** `urn:...:User:name.givenName` -> { urn: 'urn:...:User', attr: 'name', sub: 'givenName' } */
export interface AttrPath {
  urn?: string;
  attr: string;
  sub?: string;
}

export type FilterNode =
  | { type: 'logical'; op: 'and' | 'or'; left: FilterNode; right: FilterNode }
  | { type: 'not'; filter: FilterNode }
  | { type: 'compare'; path: AttrPath; op: CompareOp; value: FilterValue }
  | { type: 'present'; path: AttrPath }
  /** `emails[type eq "work"]`: the inner filter's paths are relative to `path`. */
  | { type: 'valuePath'; path: AttrPath; filter: FilterNode };

/** A PATCH operation path (RFC 7644 §3.5.2): attrPath, or valuePath with an optional sub-attribute. */
export interface PatchPath {
  path: AttrPath;
  filter?: FilterNode;
  /** The sub-attribute after a value filter: `emails[type eq "work"].value` -> 'value'. */
  subAfterFilter?: string;
}
