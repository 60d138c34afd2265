import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** A file xmllint sees in its in-memory file system. */
export interface XmllintFile {
  fileName: string;
  contents: string;
}

export interface XmllintRun {
  inputFiles: XmllintFile[];
  args: string[];
}

/** xmllint-wasm's defaults: 16 MiB of WebAssembly memory to start, 32 MiB at most (in 64 KiB pages). */
const INITIAL_MEMORY_PAGES = 256;
const MAX_MEMORY_PAGES = 512;
/** A validation that has not answered by then is abandoned and its worker replaced. */
const RUN_TIMEOUT_MS = 10_000;

/**
 * The worker's code (CommonJS, evaluated as is, so the same file serves the build and ts-jest):
 * it compiles xmllint-wasm's WebAssembly once and runs xmllint's main on a fresh instance, memory
 * and file system for each validation. xmllint's own stdout and stderr are dropped (they would
 * carry the person's data, decision 0421); only the exit status comes back.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const createXmllint = require(workerData.factoryPath);
// The factory's file also installs xmllint-wasm's one-shot message handler: only ours answers here.
parentPort.removeAllListeners('message');
const compiled = new WebAssembly.Module(readFileSync(workerData.wasmPath));
parentPort.on('message', (run) => {
  let answered = false;
  const answer = (exitCode) => {
    if (answered) return;
    answered = true;
    parentPort.postMessage({ id: run.id, exitCode });
  };
  try {
    createXmllint({
      inputFiles: run.inputFiles,
      arguments: run.args,
      stdout: () => {},
      stderr: () => {},
      onExit: answer,
      wasmMemory: new WebAssembly.Memory({ initial: workerData.initialMemory, maximum: workerData.maxMemory }),
      instantiateWasm: (imports, receive) => receive(new WebAssembly.Instance(compiled, imports)),
    }).then(() => answer(-1), () => answer(-1));
  } catch {
    answer(-1);
  }
});
`;

/**
 * xmllint (xmllint-wasm's WebAssembly build of libxml2) in one long-lived worker thread. The
 * package's own `validateXML` starts a worker and compiles the 800 KB module for every call, which
 * cost a SAML sign-in about 200 ms of CPU (decision 0944); here both happen once per process and a
 * validation pays only for xmllint's run. Runs are answered in order, one at a time; a worker that
 * fails or stalls is replaced and its runs answered with -1 (invalid).
 */
export class XmllintWorker {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (exitCode: number) => void; timer: NodeJS.Timeout }>();

  /** xmllint's exit status for the run: 0 valid, 3 or 4 invalid, anything else a failure. */
  run(job: XmllintRun): Promise<number> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<number>((resolve) => {
      const timer = setTimeout(() => this.restart(worker), RUN_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, { resolve, timer });
      worker.ref();
      worker.postMessage({ id, inputFiles: job.inputFiles, args: job.args });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.answerAll(-1);
    if (worker) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const factoryPath = require.resolve('xmllint-wasm/xmllint-node.js');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        factoryPath,
        wasmPath: join(dirname(factoryPath), 'xmllint.wasm'),
        initialMemory: INITIAL_MEMORY_PAGES,
        maxMemory: MAX_MEMORY_PAGES,
      },
    });
    worker.on('message', (message: { id: number; exitCode: number }) => {
      const entry = this.waiting.get(message.id);
      if (!entry) return;
      this.waiting.delete(message.id);
      clearTimeout(entry.timer);
      entry.resolve(message.exitCode);
      // An idle worker does not keep the process alive.
      if (this.waiting.size === 0) worker.unref();
    });
    worker.on('error', () => this.restart(worker));
    worker.on('exit', () => this.restart(worker));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private restart(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.answerAll(-1);
    void worker.terminate();
  }

  private answerAll(exitCode: number): void {
    for (const { resolve, timer } of this.waiting.values()) {
      clearTimeout(timer);
      resolve(exitCode);
    }
    this.waiting.clear();
  }
}
