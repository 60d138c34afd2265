import cluster from 'node:cluster';
import { AggregatorRegistry, register } from 'prom-client';
import { COMMON_ERRORS } from './common.errors';
import { DomainError } from './errors';

/**
 * /metrics for the whole process (decision 0212). With several workers each holds its own counters;
 * the worker that answers a scrape asks the primary, which gathers every worker's registry with
 * prom-client's AggregatorRegistry (counters and histograms summed) and hands the text back.
 */
const SCRAPE = 'identity-service:metrics-scrape';
const SCRAPED = 'identity-service:metrics-scraped';
/** Above prom-client's own 5 s wait for the workers: the primary answers (or fails) first. */
const SCRAPE_TIMEOUT_MS = 10_000;

interface ScrapeRequest {
  type: typeof SCRAPE;
  id: number;
}
interface ScrapeAnswer {
  type: typeof SCRAPED;
  id: number;
  text?: string;
  error?: string;
}

const isScrapeRequest = (m: unknown): m is ScrapeRequest => (m as ScrapeRequest | null)?.type === SCRAPE;
const isScrapeAnswer = (m: unknown): m is ScrapeAnswer => (m as ScrapeAnswer | null)?.type === SCRAPED;

/** In the primary: answers the workers' scrapes with the sum of every worker's registry. */
export function aggregateWorkerMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message) => {
    if (!isScrapeRequest(message)) return;
    const answer = (body: Omit<ScrapeAnswer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPED, id: message.id, ...body } satisfies ScrapeAnswer);
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (err: Error) => answer({ error: err.message }),
    );
  });
}

let nextScrape = 0;

/** In a worker, before the application boots: answers the primary's requests for this worker's registry. */
export function joinClusterMetrics(): void {
  // Constructing one installs prom-client's responder in a worker process.
  new AggregatorRegistry();
}

/** The Prometheus text of the whole process: this registry alone, or every worker's through the primary. */
export async function processMetrics(): Promise<string> {
  if (!cluster.isWorker || !process.send) return register.metrics();
  const id = nextScrape++;
  return new Promise<string>((resolve, reject) => {
    const fail = (why: string) => {
      finish();
      reject(new DomainError(COMMON_ERRORS.service_unavailable, `the workers' metrics could not be gathered: ${why}`));
    };
    const timer = setTimeout(() => fail('the primary did not answer'), SCRAPE_TIMEOUT_MS);
    const onMessage = (message: unknown) => {
      if (!isScrapeAnswer(message) || message.id !== id) return;
      if (message.text === undefined) return fail(message.error ?? 'unknown error');
      finish();
      resolve(message.text);
    };
    const finish = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    process.send!({ type: SCRAPE, id } satisfies ScrapeRequest);
  });
}
