import { AttrPath, CompareOp, FilterNode } from './ast';
import { AttrDef, resolveAttr, resolveValuePathParent, ResourceAttrs } from './attributes';
import { Operand, operandFor } from './operand';

type Json = Record<string, unknown>;

/**
 * Evaluates a filter against a resource's SCIM JSON, independently of the SQL
 * translator (the property tests check the two agree). A multi-valued attribute
 * matches when any of its values does; an absent value matches nothing.
 */
export function evaluateFilter(node: FilterNode, resource: Json, attrs: ResourceAttrs): boolean {
  // Check the whole tree first, as the SQL translator does: short-circuiting must not hide an invalid term.
  validate(node, attrs, undefined);
  return evalNode(node, attrs, resource, undefined);
}

function validate(n: FilterNode, attrs: ResourceAttrs, parent: AttrPath | undefined): void {
  switch (n.type) {
    case 'logical':
      validate(n.left, attrs, parent);
      return validate(n.right, attrs, parent);
    case 'not':
      return validate(n.filter, attrs, parent);
    case 'present':
      resolveAttr(attrs, n.path, parent);
      return;
    case 'compare':
      operandFor(resolveAttr(attrs, n.path, parent), n.op, n.value);
      return;
    case 'valuePath':
      resolveValuePathParent(attrs, n.path);
      resolveAttr(attrs, { attr: 'value' }, n.path);
      return validate(n.filter, attrs, n.path);
  }
}

function evalNode(n: FilterNode, attrs: ResourceAttrs, ctx: Json, parent: AttrPath | undefined): boolean {
  switch (n.type) {
    case 'logical':
      return n.op === 'and'
        ? evalNode(n.left, attrs, ctx, parent) && evalNode(n.right, attrs, ctx, parent)
        : evalNode(n.left, attrs, ctx, parent) || evalNode(n.right, attrs, ctx, parent);
    case 'not':
      return !evalNode(n.filter, attrs, ctx, parent);
    case 'present': {
      const def = resolveAttr(attrs, n.path, parent);
      return valuesOf(ctx, def, parent !== undefined).some((v) => v !== null && v !== undefined && v !== '');
    }
    case 'compare': {
      const def = resolveAttr(attrs, n.path, parent);
      const operand = operandFor(def, n.op, n.value);
      return valuesOf(ctx, def, parent !== undefined).some((v) => v !== null && v !== undefined && matches(def, n.op, v, operand));
    }
    case 'valuePath': {
      const top = resolveValuePathParent(attrs, n.path);
      resolveAttr(attrs, { attr: 'value' }, n.path);
      const elements = ctx[top];
      return Array.isArray(elements) && elements.some((e) => evalNode(n.filter, attrs, e as Json, n.path));
    }
  }
}

/** Values of `def` in `ctx`: inside a value filter ctx is one element, so only the last segment applies. */
function valuesOf(ctx: Json, def: AttrDef, inElement: boolean): unknown[] {
  const segments = def.name.split('.');
  if (inElement) return [ctx[segments[segments.length - 1]]];
  let current: unknown[] = [ctx];
  for (const seg of segments) {
    current = current.flatMap((c) => {
      if (c === null || typeof c !== 'object') return [];
      const v = (c as Json)[seg];
      return Array.isArray(v) ? v : [v];
    });
  }
  return current;
}

function matches(def: AttrDef, op: CompareOp, actual: unknown, operand: Operand): boolean {
  switch (operand.kind) {
    case 'boolean':
      return op === 'eq' ? actual === operand.value : actual !== operand.value;
    case 'dateTime':
      return order(op, Date.parse(String(actual)) - operand.ms);
    case 'uuid':
      if (op === 'eq') return operand.valid && String(actual).toLowerCase() === operand.value;
      if (op === 'ne') return !operand.valid || String(actual).toLowerCase() !== operand.value;
      return text(op, String(actual), operand.value);
    case 'string':
      return def.caseExact ? text(op, String(actual), operand.value) : text(op, String(actual).toLowerCase(), operand.value.toLowerCase());
  }
}

function text(op: CompareOp, a: string, b: string): boolean {
  switch (op) {
    case 'co':
      return a.includes(b);
    case 'sw':
      return a.startsWith(b);
    case 'ew':
      return a.endsWith(b);
    default:
      return order(op, compareBytes(a, b));
  }
}

function order(op: CompareOp, diff: number): boolean {
  switch (op) {
    case 'eq':
      return diff === 0;
    case 'ne':
      return diff !== 0;
    case 'gt':
      return diff > 0;
    case 'ge':
      return diff >= 0;
    case 'lt':
      return diff < 0;
    case 'le':
      return diff <= 0;
    default:
      return false;
  }
}

/** UTF-8 byte order, the order of COLLATE "C" in PostgreSQL. */
function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
