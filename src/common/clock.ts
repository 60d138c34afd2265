import { Injectable } from '@nestjs/common';

/**
 * The application's notion of "now" for expiries (codes, tokens, sessions). Tests move it forward
 * with advance() instead of sleeping; in production the offset stays 0.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Tests only: shift the clock forward (or back with a negative value). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
