import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { coresForThisProcess } from '../cores';

/** OWASP's argon2id baseline (19 MiB, t=2, p=1): strong, and cheap enough to serve sign-ins. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2id hashing with bounded concurrency, one hash at a time per core this process may use: a flood of
 * sign-ins queues here instead of occupying every libuv thread and starving other endpoints.
 */
@Injectable()
export class PasswordHasher {
  private readonly limit = coresForThisProcess();
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private dummyHash?: Promise<string>;

  hash(password: string): Promise<string> {
    return this.bounded(() => argon2.hash(password, ARGON2_OPTIONS));
  }

  async verify(hash: string, password: string): Promise<boolean> {
    return this.bounded(() => argon2.verify(hash, password).catch(() => false));
  }

  /** Spend the same time as a real check when the account does not exist. */
  async verifyAgainstDummy(password: string): Promise<false> {
    this.dummyHash ??= argon2.hash('dummy-password-for-timing', ARGON2_OPTIONS);
    await this.verify(await this.dummyHash, password);
    return false;
  }

  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
