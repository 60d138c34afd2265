import { GROUP_SCHEMA, USER_SCHEMA } from '../filter/attributes';
import { parseAttrPath, parsePatchPath } from '../filter/parser';
import { PatchPath } from '../filter/ast';
import { ScimError } from '../scim.errors';
import { CanonicalOp, GroupPatchAttr, PATCH_OP_SCHEMA, UserPatchAttr } from './patch-op';

interface PatchTarget<A extends string> {
  schemaUrn: string;
  /** lowercased path -> canonical attribute */
  attrs: Record<string, A>;
  /** complex attributes whose object value is spread into one op per sub-attribute */
  complex: Record<string, true>;
}

const USER_TARGET: PatchTarget<UserPatchAttr> = {
  schemaUrn: USER_SCHEMA,
  attrs: {
    username: 'userName',
    'name.givenname': 'name.givenName',
    'name.familyname': 'name.familyName',
    emails: 'emails',
    'emails.value': 'emails.value',
    active: 'active',
  },
  complex: { name: true },
};

const GROUP_TARGET: PatchTarget<GroupPatchAttr> = {
  schemaUrn: GROUP_SCHEMA,
  attrs: { displayname: 'displayName', externalid: 'externalId', members: 'members' },
  complex: {},
};

export function normalizeUserPatch(body: unknown): CanonicalOp<UserPatchAttr>[] {
  return normalize(body, USER_TARGET);
}

export function normalizeGroupPatch(body: unknown): CanonicalOp<GroupPatchAttr>[] {
  return normalize(body, GROUP_TARGET);
}

/**
 * Turns what real clients send into canonical operations, in order:
 * ops in any case ("Replace"), path-less value objects with dotted, nested or
 * URN-prefixed keys (Okta, Entra), value-filter paths, and Entra's legacy
 * `remove members` with a value array (kept as a remove with a value, which the
 * group applier reads as "only these"). Read-only and unstored attributes vanish.
 */
function normalize<A extends string>(body: unknown, target: PatchTarget<A>): CanonicalOp<A>[] {
  if (!isObject(body)) throw new ScimError('invalidSyntax', 'PATCH body must be a JSON object with an Operations array');
  checkSchemas(body, PATCH_OP_SCHEMA);
  const operations = getCI(body, 'Operations');
  if (!Array.isArray(operations)) throw new ScimError('invalidSyntax', 'PATCH body needs an "Operations" array');
  // RFC 7644 §3.5.2: "at least one" operation; an empty list would answer 200 having done nothing.
  if (operations.length === 0) throw new ScimError('invalidSyntax', 'PATCH "Operations" must contain at least one operation');
  return operations.flatMap((raw, i) => normalizeOne(raw, i, target));
}

function normalizeOne<A extends string>(raw: unknown, index: number, target: PatchTarget<A>): CanonicalOp<A>[] {
  if (!isObject(raw)) throw new ScimError('invalidSyntax', `Operations[${index}] must be an object`);
  const opText = getCI(raw, 'op');
  const op = typeof opText === 'string' ? opText.toLowerCase() : '';
  if (op !== 'add' && op !== 'replace' && op !== 'remove') {
    throw new ScimError('invalidSyntax', `Operations[${index}].op must be add, replace or remove, not ${JSON.stringify(opText)}`);
  }
  const path = getCI(raw, 'path');
  const value = getCI(raw, 'value');
  if (typeof path === 'string' && path.trim() !== '') return fromPath(op, parsePatchPath(path.trim()), value, target);
  if (op === 'remove') throw new ScimError('noTarget', `Operations[${index}]: remove needs a path`);
  if (!isObject(value)) throw new ScimError('invalidValue', `Operations[${index}]: without a path, value must be an object of attributes`);
  return spread(op, value, target);
}

/** A path-less value object: each key is a path of its own (RFC 7644 §3.5.2.1/3). */
function spread<A extends string>(op: 'add' | 'replace', value: Record<string, unknown>, target: PatchTarget<A>): CanonicalOp<A>[] {
  return Object.entries(value).flatMap(([key, v]) => {
    if (key.toLowerCase() === target.schemaUrn.toLowerCase() && isObject(v)) return spread(op, v, target);
    const path = parseAttrPath(key);
    // A key that is not even an attribute name cannot name anything we store.
    return path ? fromPath(op, { path }, v, target) : [];
  });
}

function fromPath<A extends string>(op: CanonicalOp['op'], p: PatchPath, value: unknown, target: PatchTarget<A>): CanonicalOp<A>[] {
  if (p.path.urn !== undefined && p.path.urn.toLowerCase() !== target.schemaUrn.toLowerCase()) return []; // extension schema: not stored
  const base = p.path.attr.toLowerCase();
  const full = p.path.sub !== undefined ? `${base}.${p.path.sub.toLowerCase()}` : base;
  if (target.complex[full] && op !== 'remove' && isObject(value)) {
    // name: {givenName, familyName} -> one op per sub-attribute; unmentioned ones stay (RFC 7644 §3.5.2.3).
    return Object.entries(value).flatMap(([sub, v]) => fromPath(op, { path: { attr: base, sub } }, v, target));
  }
  if (target.complex[full] && op === 'remove') {
    return Object.entries(target.attrs)
      .filter(([k]) => k.startsWith(`${full}.`))
      .map(([, attr]) => ({ op, attr }));
  }
  const attr = target.attrs[full];
  if (!attr) return []; // read-only (id, meta, externalId) or not stored: a no-op
  const result: CanonicalOp<A> = { op, attr };
  if (p.filter) result.filter = p.filter;
  if (p.subAfterFilter !== undefined) result.sub = p.subAfterFilter.toLowerCase();
  if (value !== undefined) result.value = value;
  return [result];
}

/**
 * The body's `schemas` (RFC 7643 §3): absent (or null) is accepted, as most SCIM servers and RFC 7644's
 * examples of partial bodies allow; when present it must be an array of URNs that includes `core` (the
 * resource's or message's own schema). Other URNs (extensions) are accepted, as unknown attributes are.
 * Decision 0213.
 */
export function checkSchemas(body: Record<string, unknown>, core: string): void {
  const schemas = getCI(body, 'schemas');
  if (schemas === undefined || schemas === null) return;
  if (!Array.isArray(schemas) || !schemas.every((s) => typeof s === 'string')) {
    throw new ScimError('invalidSyntax', `schemas must be an array of schema URNs including "${core}"`);
  }
  if (!schemas.some((s) => s.toLowerCase() === core.toLowerCase())) {
    throw new ScimError('invalidSyntax', `schemas must include "${core}"`);
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Attribute names are case-insensitive (RFC 7643 §2.1). */
export function getCI(obj: Record<string, unknown>, key: string): unknown {
  if (key in obj) return obj[key];
  const lower = key.toLowerCase();
  const found = Object.keys(obj).find((k) => k.toLowerCase() === lower);
  return found === undefined ? undefined : obj[found];
}
