import { availableParallelism } from 'node:os';
import { coresForThisProcess, WORKER_COUNT_ENV } from './cores';

describe('coresForThisProcess', () => {
  const saved = process.env[WORKER_COUNT_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[WORKER_COUNT_ENV];
    else process.env[WORKER_COUNT_ENV] = saved;
  });

  it('is every core for a process that runs alone', () => {
    delete process.env[WORKER_COUNT_ENV];
    expect(coresForThisProcess()).toBe(availableParallelism());
  });

  it('divides the cores among the workers, and never gives less than one', () => {
    process.env[WORKER_COUNT_ENV] = '2';
    expect(coresForThisProcess()).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
    process.env[WORKER_COUNT_ENV] = '1000';
    expect(coresForThisProcess()).toBe(1);
  });
});
