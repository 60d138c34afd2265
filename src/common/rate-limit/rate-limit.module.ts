import { Module } from '@nestjs/common';
import { CommonModule } from '../common.module';
import { AuthRateLimiter } from './auth-rate-limiter';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * The per-address and per-account limits of the sign-in, verification and SSO routes
 * (`@RateLimit(...)` with `RateLimitGuard`). One limiter per app: every module that guards a
 * route imports this module and shares its counters.
 */
@Module({ imports: [CommonModule], providers: [AuthRateLimiter, RateLimitGuard], exports: [AuthRateLimiter, RateLimitGuard] })
export class RateLimitModule {}
