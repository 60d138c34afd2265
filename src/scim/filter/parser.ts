import { ScimError } from '../scim.errors';
import { AttrPath, COMPARE_OPS, CompareOp, FilterNode, FilterValue, PatchPath } from './ast';
import { describe, Token, tokenize } from './tokenizer';

const NAME = String.raw`\$?[A-Za-z][A-Za-z0-9_-]*`;
/** [URI ":"] ATTRNAME ["." ATTRNAME] — the URN runs up to the last colon (RFC 7644 §3.10). */
const ATTR_PATH = new RegExp(String.raw`^(?:((?:urn|URN|Urn):[^\s]*):)?(${NAME})(?:\.(${NAME}))?$`);
const SUB_ATTR = new RegExp(String.raw`^\.(${NAME})$`);
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const MAX_DEPTH = 32;
const MAX_LENGTH = 8192;

export function parseAttrPath(text: string): AttrPath | undefined {
  const m = ATTR_PATH.exec(text);
  if (!m) return undefined;
  const path: AttrPath = { attr: m[2] };
  if (m[1] !== undefined) path.urn = m[1];
  if (m[3] !== undefined) path.sub = m[3];
  return path;
}

/** Parses a `filter` query parameter into an AST; any malformation is a ScimError invalidFilter. */
export function parseFilter(input: string): FilterNode {
  const p = new Parser(input);
  const node = p.filter(false);
  p.expectEnd();
  return node;
}

/** Parses a PATCH `path`: `name.givenName`, `emails[type eq "work"].value`, `members[value eq "…"]`. */
export function parsePatchPath(input: string): PatchPath {
  try {
    const p = new Parser(input);
    const result = p.patchPath();
    p.expectEnd();
    return result;
  } catch (e) {
    if (e instanceof ScimError) throw new ScimError('invalidPath', `invalid path ${JSON.stringify(input)}: ${e.message}`);
    throw e;
  }
}

class Parser {
  private readonly tokens: Token[];
  private i = 0;
  private depth = 0;

  constructor(private readonly input: string) {
    if (input.length > MAX_LENGTH) fail(`filter is longer than ${MAX_LENGTH} characters`);
    this.tokens = tokenize(input);
  }

  filter(inValuePath: boolean): FilterNode {
    let node = this.term(inValuePath);
    while (this.isKeyword('or')) {
      this.i++;
      node = { type: 'logical', op: 'or', left: node, right: this.term(inValuePath) };
    }
    return node;
  }

  expectEnd(): void {
    const t = this.peek();
    if (t.kind !== 'end') fail(`unexpected ${describe(t)} at position ${t.pos + 1}; expected 'and', 'or' or the end of the filter`);
  }

  patchPath(): PatchPath {
    const t = this.next();
    const path = t.kind === 'word' ? parseAttrPath(t.text) : undefined;
    if (!path) fail(`expected an attribute path at position ${t.pos + 1}, found ${describe(t)}`);
    if (this.peek().kind !== 'lbracket') return { path };
    this.i++;
    const filter = this.filter(true);
    this.expect('rbracket', "']' closing the value filter");
    const result: PatchPath = { path, filter };
    const after = this.peek();
    if (after.kind === 'word') {
      const m = SUB_ATTR.exec(after.text);
      if (!m) fail(`unexpected ${describe(after)} after the value filter; expected '.subAttribute'`);
      this.i++;
      result.subAfterFilter = m[1];
    }
    return result;
  }

  private term(inValuePath: boolean): FilterNode {
    let node = this.factor(inValuePath);
    while (this.isKeyword('and')) {
      this.i++;
      node = { type: 'logical', op: 'and', left: node, right: this.factor(inValuePath) };
    }
    return node;
  }

  private factor(inValuePath: boolean): FilterNode {
    if (++this.depth > MAX_DEPTH) fail(`filter is nested more than ${MAX_DEPTH} levels deep`);
    try {
      return this.factorBody(inValuePath);
    } finally {
      this.depth--;
    }
  }

  private factorBody(inValuePath: boolean): FilterNode {
    const t = this.next();
    if (t.kind === 'lparen') return this.closeGroup(this.filter(inValuePath), t);
    if (t.kind === 'word' && t.text.toLowerCase() === 'not' && this.peek().kind === 'lparen') {
      const open = this.next();
      return { type: 'not', filter: this.closeGroup(this.filter(inValuePath), open) };
    }
    if (t.kind !== 'word') fail(`unexpected ${describe(t)} at position ${t.pos + 1}; expected an attribute name, '(' or 'not('`);
    const path = parseAttrPath(t.text);
    if (!path) fail(`'${t.text}' at position ${t.pos + 1} is not a valid attribute name`);
    if (this.peek().kind === 'lbracket') return this.valuePath(path, inValuePath);
    return this.comparison(path);
  }

  private valuePath(path: AttrPath, inValuePath: boolean): FilterNode {
    const open = this.next();
    if (inValuePath) fail(`value filters cannot be nested (position ${open.pos + 1})`);
    const filter = this.filter(true);
    this.expect('rbracket', `']' closing the value filter opened at position ${open.pos + 1}`);
    return { type: 'valuePath', path, filter };
  }

  private comparison(path: AttrPath): FilterNode {
    const opTok = this.next();
    const opText = opTok.kind === 'word' ? opTok.text.toLowerCase() : '';
    if (opText === 'pr') return { type: 'present', path };
    if (!COMPARE_OPS.includes(opText as CompareOp)) {
      fail(`expected an operator (eq, ne, co, sw, ew, gt, ge, lt, le, pr) at position ${opTok.pos + 1}, found ${describe(opTok)}`);
    }
    return { type: 'compare', path, op: opText as CompareOp, value: this.value() };
  }

  private value(): FilterValue {
    const t = this.next();
    if (t.kind === 'string') return t.value;
    if (t.kind === 'word') {
      const lower = t.text.toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
      if (lower === 'null') return null;
      if (NUMBER.test(t.text)) return Number(t.text);
    }
    fail(`expected a value (a "quoted string", true, false, null or a number) at position ${t.pos + 1}, found ${describe(t)}`);
  }

  private closeGroup(node: FilterNode, open: Token): FilterNode {
    this.expect('rparen', `')' closing the '(' at position ${open.pos + 1}`);
    return node;
  }

  private expect(kind: Token['kind'], what: string): void {
    const t = this.next();
    if (t.kind !== kind) fail(`expected ${what}, found ${describe(t)} at position ${t.pos + 1}`);
  }

  private isKeyword(word: string): boolean {
    const t = this.peek();
    return t.kind === 'word' && t.text.toLowerCase() === word;
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    const t = this.tokens[this.i];
    if (t.kind !== 'end') this.i++;
    return t;
  }
}

function fail(detail: string): never {
  throw new ScimError('invalidFilter', detail);
}
