import { isUuid } from '../../common/ids';
import { ScimError } from '../scim.errors';
import { CompareOp, FilterValue } from './ast';
import { AttrDef } from './attributes';

/** A comparison value checked against its attribute's type, shared by the SQL translator and the evaluator. */
export type Operand =
  | { kind: 'string'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'dateTime'; iso: string; ms: number }
  | { kind: 'uuid'; value: string; valid: boolean };

// Full date-time with a zone: a zone-less time would be read in the server's zone by one side and UTC by the other.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const ORDERING: CompareOp[] = ['gt', 'ge', 'lt', 'le'];
const SUBSTRING: CompareOp[] = ['co', 'sw', 'ew'];

export function operandFor(def: AttrDef, op: CompareOp, value: FilterValue): Operand {
  if (value === null) throw bad(`comparing ${def.name} with null is not supported; use 'not (${def.name} pr)'`);
  switch (def.type) {
    case 'boolean':
      return { kind: 'boolean', value: booleanOperand(def, op, value) };
    case 'dateTime':
      return dateTimeOperand(def, op, value);
    case 'uuid':
      if (typeof value !== 'string') throw bad(`${def.name} compares with a "quoted string", not ${JSON.stringify(value)}`);
      return { kind: 'uuid', value: value.toLowerCase(), valid: isUuid(value) };
    case 'string':
      if (typeof value !== 'string') throw bad(`${def.name} compares with a "quoted string", not ${JSON.stringify(value)}`);
      return { kind: 'string', value };
  }
}

function booleanOperand(def: AttrDef, op: CompareOp, value: string | number | boolean): boolean {
  if (op !== 'eq' && op !== 'ne') throw bad(`operator ${op} is not supported for boolean attribute ${def.name}`);
  if (typeof value === 'boolean') return value;
  // Some clients quote booleans ("True"); accept them (decision 0103).
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw bad(`${def.name} is boolean and compares with true or false, not ${JSON.stringify(value)}`);
}

function dateTimeOperand(def: AttrDef, op: CompareOp, value: string | number | boolean): Operand {
  if (SUBSTRING.includes(op)) throw bad(`operator ${op} is not supported for dateTime attribute ${def.name}`);
  if (typeof value !== 'string' || !DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) {
    throw bad(`${def.name} compares with an ISO 8601 date-time with a zone, e.g. "2024-01-31T12:00:00Z"`);
  }
  const ms = Date.parse(value);
  return { kind: 'dateTime', iso: new Date(ms).toISOString(), ms };
}

export function isOrdering(op: CompareOp): boolean {
  return ORDERING.includes(op);
}

function bad(detail: string): ScimError {
  return new ScimError('invalidFilter', detail);
}
