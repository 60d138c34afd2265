import type { NextFunction, Request, Response } from 'express';
import { DomainError } from './errors';

export type BodyProblem = 'too_deep' | 'invalid_unicode';

/**
 * Walks a parsed JSON value without recursion (the input is untrusted) and reports
 * what our parsers and validators cannot take: nesting deeper than `maxDepth`, or
 * strings that are not well-formed Unicode (lone surrogates from "\ud800" escapes).
 */
export function inspectJson(value: unknown, maxDepth: number): BodyProblem | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (!node.isWellFormed()) return 'invalid_unicode';
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= maxDepth) return 'too_deep';
    for (const [key, child] of Object.entries(node as object)) {
      if (!key.isWellFormed()) return 'invalid_unicode';
      stack.push([child, depth + 1]);
    }
  }
  return null;
}

const MESSAGES: Record<BodyProblem, (limit: number) => string> = {
  too_deep: (limit) => `JSON body is nested deeper than ${limit} levels`,
  invalid_unicode: () => 'JSON body contains a string that is not valid Unicode',
};

/** Refuses bodies that would make validation libraries recurse too deep or throw on bad strings. */
export function jsonBodyGuard(maxDepth = 32) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const problem = req.body && typeof req.body === 'object' ? inspectJson(req.body, maxDepth) : null;
    if (problem) {
      next(new DomainError('invalid_body', MESSAGES[problem](maxDepth), { scimType: 'invalidSyntax' }));
      return;
    }
    next();
  };
}
