import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, Observable, switchMap, finalize } from 'rxjs';
import type { Principal } from '../auth/principal';
import { DomainError } from '../errors';
import { budgetArea, BudgetOwner, RequestBudget } from './request-budget';
import type { BucketAnswer } from './token-bucket';
import { COMMON_ERRORS } from '../common.errors';

/**
 * Spends the caller's budget before the handler runs (after the guard: the principal is known).
 * SCIM requests spend their workspace's budget, developer API requests their developer's; end-user
 * and public routes have their own per-address limits. Every budgeted answer carries the IETF
 * RateLimit headers (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy` and `RateLimit`).
 */
@Injectable()
export class RequestBudgetInterceptor implements NestInterceptor {
  constructor(private readonly budget: RequestBudget) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.budget.active) return next.handle();
    const http = ctx.switchToHttp();
    const req = http.getRequest<Request & { user?: Principal }>();
    const owner = budgetOwner(req.user);
    if (!owner) return next.handle();
    const res = http.getResponse<Response>();
    return from(this.admit(owner, req, res)).pipe(switchMap(() => next.handle().pipe(finalize(() => this.budget.leave(owner)))));
  }

  private async admit(owner: BudgetOwner, req: Request, res: Response): Promise<void> {
    if (this.budget.rateLimited) {
      const answer = await this.budget.spend(owner);
      setBudgetHeaders(res, owner, answer, this.budget.limit.ratePerSecond);
      if (!answer.allowed) {
        this.budget.rememberRefusedCredential(req.headers.authorization, budgetArea(req.path), owner);
        throw overBudget(owner, answer);
      }
    }
    if (!this.budget.enter(owner)) {
      throw new DomainError(COMMON_ERRORS.rate_limited, `Too many requests of this ${owner.policy} in flight; retry shortly`, {
        retryAfterSeconds: 1,
      });
    }
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
