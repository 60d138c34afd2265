import type { Pool } from 'pg';
import type { ApiClient } from './api-client';

/** The reference servers scenarios are compared with, measured in the same run. */
export type BaselineName = 'hello' | 'pk-select' | 'pk-select-shared' | 'page-select' | 'bare-pk';

/** One request autocannon sends; the list is cycled round-robin by every connection. */
export interface BenchRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A fresh body for every request sent (e.g. a unique userName per creation); wins over `body`. */
  newBody?: () => string;
  /** A fresh path for every request sent (e.g. a new AuthnRequest: the IdP answers each one once); wins over `path`. */
  newPath?: () => string;
  /** Fresh headers for every request sent (e.g. the next of several signed-in browsers); wins over `headers`. */
  newHeaders?: () => Record<string, string>;
}

/** What a scenario's setup can use: the running service, its database and a few shortcuts. */
export interface BenchContext {
  /** e.g. http://127.0.0.1:41234 — the real service (`node dist/main.js`). */
  baseUrl: string;
  /** Superuser pool on the service's fresh bench database (seed with plain SQL). */
  db: Pool;
  databaseUrl: string;
  /** JSON client for the service's HTTP API (throws on an unexpected status). */
  api: ApiClient;
  /** A developer signed up through the API, with a bearer access token; created once per run. */
  developer(): Promise<BenchDeveloper>;
  /** A new workspace owned by the bench developer. */
  workspace(name?: string): Promise<{ id: string; name: string }>;
  /** Runs `fn` once per run for a key and shares its result (e.g. one seed for several scenarios). */
  once<T>(key: string, fn: () => Promise<T>): Promise<T>;
  log(message: string): void;
}

export interface BenchDeveloper {
  id: string;
  email: string;
  token: string;
  /** `{ authorization: 'Bearer dat_…' }` ready to spread into request headers. */
  authHeaders: Record<string, string>;
}

export interface ScenarioTargets {
  /** Minimum throughput as a fraction of the baseline's (0.8 = 80 %). */
  minThroughputRatio?: number;
  /** Maximum p99 latency in milliseconds. */
  maxP99Ms?: number;
  /** Maximum p99 as a multiple of the paired baseline window's p99 (2 = twice). */
  maxP99Ratio?: number;
}

/**
 * A load scenario. Files in bench/scenarios/ export `scenario` or `scenarios`; the
 * registry finds them, so adding a file is all it takes to plug one in.
 */
export interface Scenario<S = unknown> {
  /** Unique, kebab-case; what `--only=` matches. */
  name: string;
  /** Owning area: selects the BENCHMARKS.md section and bench/results/<area>.json. */
  area: string;
  /** One line for the table, e.g. "GET /health/live (full middleware stack)". */
  title: string;
  baseline: BaselineName;
  targets?: ScenarioTargets;
  /** Extra environment for the service process (merged across the selected scenarios). */
  serviceEnv?: Record<string, string>;
  setup(ctx: BenchContext): Promise<S>;
  /** Requests to cycle through; a function when they depend on what setup created. */
  requests: BenchRequest[] | ((state: S) => BenchRequest[]);
  teardown?(state: S): Promise<void>;
}

/** Any scenario, whatever its setup state (the registry holds a mixed list). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each scenario has its own state type
export type AnyScenario = Scenario<any>;

/** One measured window against one server. */
export interface Measurement {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Peak resident set size of the server process during the window. */
  rssMb: number;
  /** Peak proportional set size (MB) of the service's process tree: what it costs the machine, shared pages counted once. */
  pssMb?: number;
  /**
   * Server CPU time (user + system, all threads) per completed request. Unlike req/s it
   * barely depends on what else the shared machine is doing at the time.
   */
  cpuMsPerRequest: number;
  /** 1-minute load average of the machine when the window ended (how contended it was). */
  loadAverage: number;
  totalRequests: number;
  non2xx: number;
  /** The non-2xx answers by status, e.g. `429×12`: empty when there were none. */
  non2xxStatuses?: string;
  errors: number;
  timeouts: number;
  durationSec: number;
}

export interface Ratios {
  requestsPerSec: number | null;
  p50: number | null;
  p99: number | null;
  rss: number | null;
  cpuPerRequest: number | null;
}

export interface ScenarioResult {
  name: string;
  area: string;
  title: string;
  baseline: BaselineName;
  measurement: Measurement;
  /** The baseline's window measured right before the scenario's; the ratios compare the two. */
  baselineMeasurement: Measurement;
  ratios: Ratios;
  targets: ScenarioTargets;
  /** Each unmet target in words; empty when all are met. */
  misses: string[];
  /** False when the run saw errors or non-2xx answers: the figures then measure failures. */
  valid: boolean;
  /** Throughput ratio of every round (--rounds); the reported pair is the median round. */
  roundRatios?: (number | null)[];
}
