import { Worker } from 'node:worker_threads';
import { BuiltResponse, buildLoginResponse, IdpIdentity, LoginResponseInput } from './login-response.builder';

/** A Response that has not come back by then is answered as failed and its thread replaced. */
const BUILD_TIMEOUT_MS = 10_000;
const THREAD_OLD_SPACE_MB = 48;
const THREAD_YOUNG_SPACE_MB = 12;

/**
 * The thread's code (CommonJS, evaluated as is). It loads the same builder the main thread would run:
 * the compiled file in a build, the TypeScript source under Jest (through ts-node, a development
 * dependency, so that branch never runs in production; in-process test apps use no thread unless a spec asks,
 * test/support/app.ts). The signing key arrives once, in workerData,
 * as a KeyObject; a failure answers with its message only, never the input or the key.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.tsNode) require(workerData.tsNode).register({ transpileOnly: true });
const { buildLoginResponse } = require(workerData.builder);
const idp = workerData.idp;
parentPort.on('message', (job) => {
  let answer;
  try {
    answer = { id: job.id, built: buildLoginResponse(idp, job.input) };
  } catch (err) {
    answer = { id: job.id, error: String((err && err.message) || err) };
  }
  parentPort.postMessage(answer);
});
`;

type Answer = { id: number; built: BuiltResponse } | { id: number; error: string };

interface Waiting {
  resolve: (built: BuiltResponse) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/** One worker thread and the Responses it owes. */
class ResponseThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;

  constructor(private readonly idp: IdpIdentity) {}

  get pending(): number {
    return this.waiting.size;
  }

  build(input: LoginResponseInput): Promise<BuiltResponse> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<BuiltResponse>((resolve, reject) => {
      const timer = setTimeout(() => this.replace(worker, 'the signing thread did not answer'), BUILD_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, { resolve, reject, timer });
      worker.ref();
      worker.postMessage({ id, input });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll('the service is stopping');
    if (worker) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const builder = require.resolve('./login-response.builder');
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      // Signing keeps little alive; without caps start:prod's 32 MB semi-spaces apply here too (measured in decision 1026).
      resourceLimits: { maxOldGenerationSizeMb: THREAD_OLD_SPACE_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_SPACE_MB },
      workerData: {
        builder,
        tsNode: builder.endsWith('.ts') ? require.resolve('ts-node') : undefined,
        // Only what signing needs: not the NameID key, not the PEM text.
        idp: { entityId: this.idp.entityId, privateKey: this.idp.privateKey, certBase64: this.idp.certBase64 },
      },
    });
    worker.on('message', (answer: Answer) => this.answer(worker, answer));
    worker.on('error', (err) => this.replace(worker, `the signing thread failed: ${err.message}`));
    worker.on('exit', () => this.replace(worker, 'the signing thread exited'));
    // An idle thread does not keep the process alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private answer(worker: Worker, answer: Answer): void {
    const entry = this.waiting.get(answer.id);
    if (!entry) return;
    this.waiting.delete(answer.id);
    clearTimeout(entry.timer);
    if ('built' in answer) entry.resolve(answer.built);
    else entry.reject(new Error(answer.error));
    if (this.waiting.size === 0) worker.unref();
  }

  /** The next Response starts a fresh thread; the ones this thread owed are answered as failed. */
  private replace(worker: Worker, reason: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failAll(reason);
    void worker.terminate();
  }

  private failAll(reason: string): void {
    for (const { reject, timer } of this.waiting.values()) {
      clearTimeout(timer);
      reject(new Error(reason));
    }
    this.waiting.clear();
  }
}

/**
 * Builds and signs login Responses on worker threads, so a process that serves the port from one core can
 * sign on another (decision 1026). With no threads, the Response is built on the calling thread, as before.
 * Each thread is started on the first Response it is given and holds the signing key from then on.
 */
export class ResponseThreads {
  private readonly threads: ResponseThread[];

  constructor(
    private readonly idp: IdpIdentity,
    count: number,
  ) {
    this.threads = Array.from({ length: count }, () => new ResponseThread(idp));
  }

  get size(): number {
    return this.threads.length;
  }

  /** The signed Response, or a rejection whose message names what failed (never the key or the user's data). */
  async loginResponse(input: LoginResponseInput): Promise<BuiltResponse> {
    if (this.threads.length === 0) return buildLoginResponse(this.idp, input);
    return this.leastBusy().build(input);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }

  private leastBusy(): ResponseThread {
    let best = this.threads[0];
    for (const thread of this.threads) if (thread.pending < best.pending) best = thread;
    return best;
  }
}
