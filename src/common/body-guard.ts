import type { NextFunction, Request, Response } from 'express';
import { DomainError } from './errors';
import { COMMON_ERRORS } from './common.errors';

export type BodyProblem = 'too_deep' | 'unstorable_text';

/**
 * Text PostgreSQL refuses or cannot keep: U+0000 (text and jsonb both refuse it: "invalid byte
 * sequence for encoding UTF8: 0x00", "unsupported Unicode escape sequence") and unpaired UTF-16
 * surrogates, which UTF-8 cannot encode (jsonb refuses their \\u escapes; text would silently get
 * U+FFFD). Every other code point, noncharacters included, is stored as sent.
 */
export function isStorableText(s: string): boolean {
  return s.isWellFormed() && !s.includes('\u0000');
}

/**
 * Walks a parsed JSON (or form) value without recursion (the input is untrusted) and reports
 * what our parsers, validators and database cannot take: nesting deeper than `maxDepth`, or a
 * key or string that is not storable text.
 */
export function inspectJson(value: unknown, maxDepth: number): BodyProblem | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (!isStorableText(node)) return 'unstorable_text';
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= maxDepth) return 'too_deep';
    for (const [key, child] of Object.entries(node as object)) {
      if (!isStorableText(key)) return 'unstorable_text';
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

export const UNSTORABLE_DETAIL = 'a character that cannot be stored (U+0000 or an unpaired UTF-16 surrogate)';

/** The edge's refusal of text PostgreSQL cannot store: 400 in the surface's format, SCIM invalidValue. */
export function unstorable(where: string): DomainError {
  return new DomainError(COMMON_ERRORS.invalid_body, `${where} contains ${UNSTORABLE_DETAIL}`, { scimType: 'invalidValue' });
}

/** Refuses bodies that would make validation libraries recurse too deep, or that hold text the database refuses. */
export function jsonBodyGuard(maxDepth = 32) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const problem = req.body && typeof req.body === 'object' ? inspectJson(req.body, maxDepth) : null;
    if (problem === 'too_deep') {
      next(
        new DomainError(COMMON_ERRORS.invalid_body, `JSON body is nested deeper than ${maxDepth} levels`, { scimType: 'invalidSyntax' }),
      );
      return;
    }
    if (problem === 'unstorable_text') {
      next(unstorable('The request body'));
      return;
    }
    next();
  };
}

/**
 * The URL (path and query) and the cookies, checked before routing: a percent-encoded NUL (%00)
 * decodes to U+0000 in a query value or path parameter. Raw NUL and control bytes never get
 * here (Node's HTTP parser refuses them in the request line and headers), and a percent-encoded
 * byte sequence that is not UTF-8 decodes to U+FFFD, which is storable.
 */
export function urlAndCookieProblem(req: Request): DomainError | undefined {
  if (/%00/.test(req.url)) return unstorable('The URL');
  const cookies = req.cookies as Record<string, unknown> | undefined;
  if (cookies) {
    for (const value of Object.values(cookies)) {
      if (typeof value === 'string' && !isStorableText(value)) return unstorable('A cookie');
    }
  }
  return undefined;
}
