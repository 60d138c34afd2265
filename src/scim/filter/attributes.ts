import { ScimError } from '../scim.errors';
import { AttrPath } from './ast';
import { printAttrPath } from './printer';

export type AttrType = 'string' | 'boolean' | 'dateTime' | 'uuid';

/** One filterable attribute: how it reads in SCIM JSON and in SQL. */
export interface AttrDef {
  /** Canonical SCIM name, dotted: 'emails.value', 'meta.lastModified'. */
  name: string;
  type: AttrType;
  /** RFC 7643 caseExact; false compares with lower() on both sides. */
  caseExact: boolean;
  /** Trusted SQL expression over the resource alias (never built from input). */
  sql: string;
  /** The column can be NULL: comparisons add an IS NOT NULL guard so NOT stays two-valued. */
  nullable?: boolean;
  /** Multi-valued attributes stored in a child table: comparisons become EXISTS (...). */
  exists?: { from: string; where: string };
}

export interface ResourceAttrs {
  resource: 'User' | 'Group';
  schemaUrn: string;
  /** Keyed by the lowercased canonical name; aliases (`emails` for `emails.value`) share a def. */
  byName: Map<string, AttrDef>;
}

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** SQL for name.formatted: given and family joined by a space (see user.mapper formatName). */
export const USER_FORMATTED_SQL = `NULLIF(btrim(concat_ws(' ', NULLIF(u.first_name, ''), NULLIF(u.last_name, ''))), '')`;

function build(resource: 'User' | 'Group', schemaUrn: string, defs: AttrDef[], aliases: Record<string, string>): ResourceAttrs {
  const byName = new Map<string, AttrDef>();
  for (const d of defs) byName.set(d.name.toLowerCase(), d);
  for (const [alias, target] of Object.entries(aliases)) byName.set(alias.toLowerCase(), byName.get(target.toLowerCase())!);
  return { resource, schemaUrn, byName };
}

const meta = (alias: string): AttrDef[] => [
  { name: 'meta.created', type: 'dateTime', caseExact: true, sql: `date_trunc('milliseconds', ${alias}.created_at)` },
  { name: 'meta.lastModified', type: 'dateTime', caseExact: true, sql: `date_trunc('milliseconds', ${alias}.updated_at)` },
];

/**
 * Users live in end_users (alias u; first_name/last_name are NOT NULL DEFAULT '', and an
 * empty name is absent in SCIM, hence NULLIF). emails is one stored address, exposed as type work, primary. */
export const USER_ATTRS = build(
  'User',
  USER_SCHEMA,
  [
    { name: 'id', type: 'uuid', caseExact: false, sql: 'u.id' },
    // externalId echoes the id (spec): filtering on it finds the same user.
    { name: 'externalId', type: 'uuid', caseExact: false, sql: 'u.id' },
    { name: 'userName', type: 'string', caseExact: false, sql: 'u.email' },
    { name: 'emails.value', type: 'string', caseExact: false, sql: 'u.email' },
    { name: 'emails.type', type: 'string', caseExact: false, sql: `'work'::text` },
    { name: 'emails.primary', type: 'boolean', caseExact: false, sql: 'TRUE' },
    { name: 'name.givenName', type: 'string', caseExact: false, sql: `NULLIF(u.first_name, '')`, nullable: true },
    { name: 'name.familyName', type: 'string', caseExact: false, sql: `NULLIF(u.last_name, '')`, nullable: true },
    { name: 'name.formatted', type: 'string', caseExact: false, sql: USER_FORMATTED_SQL, nullable: true },
    { name: 'displayName', type: 'string', caseExact: false, sql: USER_FORMATTED_SQL, nullable: true },
    { name: 'active', type: 'boolean', caseExact: false, sql: 'u.is_active' },
    ...meta('u'),
  ],
  { emails: 'emails.value' },
);

/** Groups live in scim_groups (alias g); members in scim_group_members. */
export const GROUP_ATTRS = build(
  'Group',
  GROUP_SCHEMA,
  [
    { name: 'id', type: 'uuid', caseExact: false, sql: 'g.id' },
    // The client's value as sent: caseExact (RFC 7643 §3.1), so `eq` is one probe of (workspace_id, external_id).
    { name: 'externalId', type: 'string', caseExact: true, sql: 'g.external_id', nullable: true },
    { name: 'displayName', type: 'string', caseExact: false, sql: 'g.display_name' },
    {
      name: 'members.value',
      type: 'uuid',
      caseExact: false,
      sql: 'gm.user_id',
      exists: { from: 'scim_group_members gm', where: 'gm.group_id = g.id' },
    },
    ...meta('g'),
  ],
  { members: 'members.value' },
);

/**
 * Resolves a filter attribute path case-insensitively. `parent` is the attribute of an
 * enclosing value filter (`emails[type eq "work"]`). Unknown -> invalidFilter.
 */
export function resolveAttr(attrs: ResourceAttrs, path: AttrPath, parent?: AttrPath): AttrDef {
  const shown = parent ? `${printAttrPath(parent)}[${printAttrPath(path)}]` : printAttrPath(path);
  const urn = parent?.urn ?? path.urn;
  if (urn !== undefined && urn.toLowerCase() !== attrs.schemaUrn.toLowerCase()) {
    throw new ScimError('invalidFilter', `attribute '${shown}' belongs to schema ${urn}, which this server does not store`);
  }
  if (parent && (parent.sub !== undefined || path.urn !== undefined || path.sub !== undefined)) {
    throw new ScimError('invalidFilter', `'${shown}' is not a valid attribute inside a value filter`);
  }
  const key = (parent ? `${parent.attr}.${path.attr}` : path.sub !== undefined ? `${path.attr}.${path.sub}` : path.attr).toLowerCase();
  const def = attrs.byName.get(key);
  if (!def) {
    throw new ScimError('invalidFilter', `unknown attribute '${shown}' for ${attrs.resource}; filterable: ${filterableNames(attrs)}`);
  }
  return def;
}

/** The multi-valued/complex attribute a value filter applies to (`emails`, `members`). */
export function resolveValuePathParent(attrs: ResourceAttrs, path: AttrPath): string {
  const probe = attrs.byName.get(`${path.attr}.value`.toLowerCase());
  const urnOk = path.urn === undefined || path.urn.toLowerCase() === attrs.schemaUrn.toLowerCase();
  if (!probe || !urnOk || path.sub !== undefined) {
    throw new ScimError('invalidFilter', `'${printAttrPath(path)}' does not support a value filter for ${attrs.resource}`);
  }
  return probe.name.split('.')[0];
}

function filterableNames(attrs: ResourceAttrs): string {
  return [...new Set([...attrs.byName.values()].map((d) => d.name))].join(', ');
}
