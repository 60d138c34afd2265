/**
 * Bounded polling for conditions another process, connection or timer makes true: retries
 * `check` until it returns without throwing (its value is returned) or `timeoutMs` passes, then
 * throws the last failure. Tests wait with this, never with a fixed sleep. The default ceiling is
 * generous: a condition met in a second on a quiet machine can take ten times that at load 20.
 */
export async function eventually<T>(check: () => Promise<T> | T, { timeoutMs = 30_000, intervalMs = 25 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await pause(intervalMs);
    }
  }
}

/**
 * For the opposite claim, that something does NOT happen (a mail that must not be sent): keeps
 * checking for `forMs` and fails as soon as `check` throws. Bounded like `eventually`.
 */
export async function consistently(check: () => Promise<void> | void, { forMs = 500, intervalMs = 50 } = {}): Promise<void> {
  const deadline = Date.now() + forMs;
  do {
    await check();
    await pause(intervalMs);
  } while (Date.now() < deadline);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
