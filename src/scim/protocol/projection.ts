import { parseAttrPath } from '../filter/parser';

/** attributes / excludedAttributes (RFC 7644 §3.4.2.5), as lowercased `attr` or `attr.sub` names. */
export interface Projection {
  include?: string[];
  exclude?: string[];
}

// Returned whatever the client asks (RFC 7643 §2.4 "returned: always").
const ALWAYS = new Set(['id', 'schemas']);

export function readProjection(attributes?: string, excluded?: string): Projection {
  const include = names(attributes);
  const exclude = names(excluded);
  return { ...(include.length ? { include } : {}), ...(exclude.length ? { exclude } : {}) };
}

/** Whether the projection drops a top-level attribute entirely (so the caller can skip loading it). */
export function excludes(p: Projection, attr: string): boolean {
  const a = attr.toLowerCase();
  if (p.include) return !p.include.some((n) => n === a || n.startsWith(`${a}.`));
  return !!p.exclude?.includes(a);
}

export function project(resource: Record<string, unknown>, p: Projection): Record<string, unknown> {
  if (!p.include && !p.exclude) return resource;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const k = key.toLowerCase();
    if (ALWAYS.has(k)) {
      out[key] = value;
    } else if (p.include) {
      if (p.include.includes(k)) {
        out[key] = value;
      } else {
        const subs = p.include.filter((n) => n.startsWith(`${k}.`)).map((n) => n.slice(k.length + 1));
        if (subs.length) out[key] = pick(value, subs, true);
      }
    } else if (!p.exclude!.includes(k)) {
      const subs = p.exclude!.filter((n) => n.startsWith(`${k}.`)).map((n) => n.slice(k.length + 1));
      out[key] = subs.length ? pick(value, subs, false) : value;
    }
  }
  return out;
}

function pick(value: unknown, subs: string[], keep: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => pick(v, subs, keep));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => subs.includes(k.toLowerCase()) === keep));
}

/** "userName, name.givenName, urn:…:User:emails" -> ['username', 'name.givenname', 'emails']; unknown names simply match nothing. */
function names(list?: string): string[] {
  if (!list) return [];
  return list
    .split(',')
    .map((s) => parseAttrPath(s.trim()))
    .filter((p) => p !== undefined)
    .map((p) => (p.sub !== undefined ? `${p.attr}.${p.sub}` : p.attr).toLowerCase());
}

/** attributes / excludedAttributes from a query object, names matched case-insensitively. */
export function readProjectionQuery(query: Record<string, unknown>): Projection {
  const get = (name: string) => {
    const v = Object.entries(query).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    const first = Array.isArray(v) ? (v[0] as unknown) : v;
    return typeof first === 'string' ? first : undefined;
  };
  return readProjection(get('attributes'), get('excludedAttributes'));
}
