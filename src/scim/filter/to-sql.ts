import { AttrPath, CompareOp, FilterNode } from './ast';
import { AttrDef, resolveAttr, resolveValuePathParent, ResourceAttrs } from './attributes';
import { Operand, operandFor } from './operand';

/**
 * Translates a filter AST into a parameterized SQL boolean expression. Values only
 * ever travel as bind parameters; column expressions come from the trusted attribute
 * map. `params` is appended to, so callers can put their own parameters first
 * (e.g. `$1` = workspace id).
 */
export function filterToSql(node: FilterNode, attrs: ResourceAttrs, params: unknown[]): string {
  return new Translator(attrs, params).node(node, undefined, false);
}

/**
 * Translates the inner filter of a value path (`members[value eq "…"]`) as a condition on
 * one child row (alias gm for members), for DELETE ... WHERE.
 */
export function valueFilterToSql(parent: AttrPath, filter: FilterNode, attrs: ResourceAttrs, params: unknown[]): string {
  resolveValuePathParent(attrs, parent);
  return new Translator(attrs, params).node(filter, parent, true);
}

const SQL_OP: Record<CompareOp, string> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=', co: 'LIKE', sw: 'LIKE', ew: 'LIKE' };

class Translator {
  constructor(
    private readonly attrs: ResourceAttrs,
    private readonly params: unknown[],
  ) {}

  node(n: FilterNode, parent: AttrPath | undefined, insideExists: boolean): string {
    switch (n.type) {
      case 'logical':
        return `(${this.node(n.left, parent, insideExists)} ${n.op.toUpperCase()} ${this.node(n.right, parent, insideExists)})`;
      case 'not':
        return `(NOT ${this.node(n.filter, parent, insideExists)})`;
      case 'present': {
        const def = resolveAttr(this.attrs, n.path, parent);
        const cond = def.type === 'string' ? `(${def.sql} IS NOT NULL AND ${def.sql} <> '')` : `(${def.sql} IS NOT NULL)`;
        return this.wrapExists(def, cond, insideExists);
      }
      case 'compare': {
        const def = resolveAttr(this.attrs, n.path, parent);
        const cond = this.compare(def, n.op, operandFor(def, n.op, n.value));
        return this.wrapExists(def, def.nullable ? `(${def.sql} IS NOT NULL AND ${cond})` : cond, insideExists);
      }
      case 'valuePath': {
        resolveValuePathParent(this.attrs, n.path);
        const probe = resolveAttr(this.attrs, { attr: 'value' }, n.path);
        if (!probe.exists) return this.node(n.filter, n.path, insideExists);
        // One EXISTS around the whole value filter: all conditions must hold for the same member row.
        return this.wrapExists(probe, this.node(n.filter, n.path, true), false);
      }
    }
  }

  private wrapExists(def: AttrDef, cond: string, insideExists: boolean): string {
    if (!def.exists || insideExists) return cond;
    return `EXISTS (SELECT 1 FROM ${def.exists.from} WHERE ${def.exists.where} AND ${cond})`;
  }

  private compare(def: AttrDef, op: CompareOp, operand: Operand): string {
    switch (operand.kind) {
      case 'boolean':
        return `(${def.sql} ${SQL_OP[op]} ${this.bind(operand.value)}::boolean)`;
      case 'dateTime':
        return `(${def.sql} ${SQL_OP[op]} ${this.bind(operand.iso)}::timestamptz)`;
      case 'uuid':
        return this.compareUuid(def, op, operand);
      case 'string':
        return this.compareText(def.caseExact ? def.sql : `lower(${def.sql})`, op, operand.value, !def.caseExact);
    }
  }

  private compareUuid(def: AttrDef, op: CompareOp, operand: Extract<Operand, { kind: 'uuid' }>): string {
    // A non-UUID value can never equal a uuid column; casting it would be a 500.
    if (op === 'eq') return operand.valid ? `(${def.sql} = ${this.bind(operand.value)}::uuid)` : 'FALSE';
    if (op === 'ne') return operand.valid ? `(${def.sql} <> ${this.bind(operand.value)}::uuid)` : 'TRUE';
    return this.compareText(`${def.sql}::text`, op, operand.value, false);
  }

  private compareText(lhs: string, op: CompareOp, value: string, lowerValue: boolean): string {
    const wrap = (p: string) => (lowerValue ? `lower(${p})` : p);
    if (op === 'co' || op === 'sw' || op === 'ew') {
      const escaped = escapeLike(value);
      const pattern = op === 'co' ? `%${escaped}%` : op === 'sw' ? `${escaped}%` : `%${escaped}`;
      return `(${lhs} LIKE ${wrap(this.bind(pattern))} ESCAPE '\\')`;
    }
    if (op === 'eq' || op === 'ne') return `(${lhs} ${SQL_OP[op]} ${wrap(this.bind(value))})`;
    // Byte order, so ordering does not depend on the database's locale.
    return `((${lhs}) COLLATE "C" ${SQL_OP[op]} ${wrap(this.bind(value))})`;
  }

  private bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

/** Escapes LIKE wildcards so a value matches literally (ESCAPE '\'). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
