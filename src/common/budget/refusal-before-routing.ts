import type { Request, Response } from 'express';
import { answerError } from '../exception.filter';
import { overBudget, setBudgetHeaders } from './request-budget.guard';
import { budgetArea, RequestBudget } from './request-budget';

/** Answers the request itself (true) or leaves it to the application (false). */
export type EarlyAnswer = (req: Request, res: Response) => boolean;

/**
 * The budget check the HTTP pipeline runs before body parsing, routing and Nest (decision 0612): a request
 * whose bearer credential the shared bucket refused moments ago, in the same area, while that bucket cannot
 * hold a token yet, is answered 429 here with what the budget guard would have answered (`Retry-After`, the
 * RateLimit headers, the SCIM or JSON error body), so a tenant pushing past its budget costs the cores a
 * header lookup and a hash per request instead of authentication and the Nest pipeline. The answer is held
 * until the owner's bucket can hold its next token, one token interval after the owner's previous held refusal
 * (at most MAX_REFUSAL_HOLD_MS, decisions 0990 and 0992), so a client that asks again as soon as it is refused asks
 * about once per token interval. Undefined when
 * requests spend no tokens.
 */
export function refusalBeforeRouting(budget: RequestBudget): EarlyAnswer | undefined {
  if (!budget.rateLimited) return undefined;
  return (req, res) => {
    const authorization = req.headers.authorization;
    if (!authorization || !budget.refusing) return false;
    const area = budgetArea(req.path);
    if (!area) return false;
    const refusal = budget.refusedBeforeRouting(authorization, area);
    if (!refusal) return false;
    const send = () => {
      // The client went away while its refusal was held: nothing to answer.
      if (res.destroyed) return;
      setBudgetHeaders(res, refusal.owner, refusal.answer, budget.limit.ratePerSecond);
      answerError(
        area === 'scim' ? 'scim' : 'json',
        overBudget(refusal.owner, refusal.answer),
        req as Parameters<typeof answerError>[2],
        res,
      );
    };
    if (refusal.holdMs > 0) setTimeout(send, refusal.holdMs);
    else send();
    return true;
  };
}
