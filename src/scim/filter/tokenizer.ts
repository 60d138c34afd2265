import { ScimError } from '../scim.errors';

export type Token =
  | { kind: 'lparen' | 'rparen' | 'lbracket' | 'rbracket'; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'word'; text: string; pos: number }
  | { kind: 'end'; pos: number };

const PUNCT: Record<string, Token['kind']> = { '(': 'lparen', ')': 'rparen', '[': 'lbracket', ']': 'rbracket' };

/** A JSON string literal (RFC 7644 values are JSON): escapes \" \\ \/ \b \f \n \r \t \uXXXX. */
const JSON_STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const WHITESPACE = /\s/;

/**
 * Splits a filter into tokens. A "word" is any run of characters that are not
 * whitespace, quotes or brackets: attribute paths (with URN prefixes and dots),
 * operators, keywords, numbers and bare literals are told apart by the parser.
 */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (WHITESPACE.test(ch)) {
      i++;
    } else if (PUNCT[ch]) {
      tokens.push({ kind: PUNCT[ch], pos: i } as Token);
      i++;
    } else if (ch === '"') {
      JSON_STRING.lastIndex = i;
      const m = JSON_STRING.exec(input);
      if (!m) throw new ScimError('invalidFilter', `unterminated or malformed string starting at position ${i + 1}`);
      tokens.push({ kind: 'string', value: JSON.parse(m[0]) as string, pos: i });
      i += m[0].length;
    } else {
      const start = i;
      while (i < input.length && !WHITESPACE.test(input[i]) && !PUNCT[input[i]] && input[i] !== '"') i++;
      tokens.push({ kind: 'word', text: input.slice(start, i), pos: start });
    }
  }
  tokens.push({ kind: 'end', pos: input.length });
  return tokens;
}

export function describe(t: Token): string {
  switch (t.kind) {
    case 'end':
      return 'end of filter';
    case 'string':
      return `string ${JSON.stringify(t.value)}`;
    case 'word':
      return `'${t.text}'`;
    default:
      return `'${{ lparen: '(', rparen: ')', lbracket: '[', rbracket: ']' }[t.kind]}'`;
  }
}
