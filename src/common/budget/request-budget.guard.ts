import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Principal } from '../auth/principal';
import { DomainError } from '../errors';
import { budgetArea, BudgetOwner, RequestBudget } from './request-budget';
import type { BucketAnswer } from './token-bucket';
import { COMMON_ERRORS } from '../common.errors';

/**
 * Spends the caller's budget before the handler runs (the last global guard: the principal is known).
 * SCIM requests spend their workspace's budget, developer API requests their developer's; end-user
 * and public routes have their own per-address limits. Every budgeted answer carries the IETF
 * RateLimit headers (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy` and `RateLimit`).
 *
 * A guard rather than an interceptor (decision 0620): with no interceptor, Nest calls the handler
 * directly instead of through an rxjs pipeline and two `AsyncResource` bindings per request. The
 * request leaves the in-flight count when its response closes (sent or aborted).
 */
@Injectable()
export class RequestBudgetGuard implements CanActivate {
  constructor(private readonly budget: RequestBudget) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (!this.budget.active) return true;
    const http = ctx.switchToHttp();
    const req = http.getRequest<Request & { user?: Principal }>();
    const owner = budgetOwner(req.user);
    if (!owner) return true;
    const res = http.getResponse<Response>();
    if (this.budget.rateLimited) {
      const answer = await this.budget.spend(owner);
      setBudgetHeaders(res, owner, answer, this.budget.limit.ratePerSecond);
      if (!answer.allowed) {
        this.budget.rememberRefusedCredential(req.headers.authorization, budgetArea(req.path), owner);
        // Held as a refusal before routing is (decision 0990).
        const hold = this.budget.refusalHoldMs(owner);
        if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
        throw overBudget(owner, answer);
      }
    }
    if (!this.budget.enter(owner)) {
      throw new DomainError(COMMON_ERRORS.rate_limited, `Too many requests of this ${owner.policy} in flight; retry shortly`, {
        retryAfterSeconds: 1,
      });
    }
    if (this.budget.capsInFlight) res.once('close', () => this.budget.leave(owner));
    return true;
  }
}

function budgetOwner(principal: Principal | undefined): BudgetOwner | undefined {
  if (principal?.kind === 'scim') return { policy: 'workspace', id: principal.workspaceId };
  if (principal?.kind === 'developer') return { policy: 'developer', id: principal.developerId };
  return undefined;
}

/** The refusal of a request over its owner's rate, wherever it is answered (here, or before routing). */
export function overBudget(owner: BudgetOwner, answer: BucketAnswer): DomainError {
  return new DomainError(
    COMMON_ERRORS.rate_limited,
    `This ${owner.policy} is over its request budget; retry after ${answer.retryAfterSeconds} s`,
    {
      retryAfterSeconds: answer.retryAfterSeconds,
    },
  );
}

/** The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers) of a budgeted answer. */
export function setBudgetHeaders(res: Response, owner: BudgetOwner, answer: BucketAnswer, ratePerSecond: number): void {
  res.setHeader('RateLimit-Policy', `"${owner.policy}";q=${ratePerSecond};w=1`);
  res.setHeader(
    'RateLimit',
    `"${owner.policy}";r=${answer.remaining};t=${answer.allowed ? answer.resetSeconds : answer.retryAfterSeconds}`,
  );
}
