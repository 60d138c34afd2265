/** One interface over the engines a managed database can run on. */
export const ENGINE_NAMES = ['postgres', 'redis', 'mongodb'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** What the control plane stores about a tenant database; the engine needs nothing else. */
export interface TenantDatabase {
  dbName: string;
  username: string;
  password: string;
  maxConnections: number;
  maxStorageMb: number;
}

/** Enough to find a tenant's objects on the engine (no secret needed). */
export type TenantRef = Pick<TenantDatabase, 'dbName' | 'username'>;

export interface ConnectionDetails {
  host: string;
  port: number;
  database: string;
  username: string;
  password: string;
  connection_string: string;
  ssl_mode: string;
  /** Redis only: every key and channel of the tenant starts with it. */
  key_prefix?: string;
}

export interface BackupArtifact {
  path: string;
  sizeBytes: number;
  sha256: string;
}

/** Figures every engine reports, plus engine-specific ones. */
export interface EngineMetrics {
  storage_bytes: number;
  connections: number;
  [extra: string]: unknown;
}

export interface HealthCheck {
  name: string;
  ok: boolean;
  latency_ms: number;
  error?: string;
}

export interface HealthReport {
  status: 'healthy' | 'unhealthy' | 'unknown';
  latency_ms: number;
  checks: HealthCheck[];
}

/** Where an engine lives: the admin URL the control plane uses, the address tenants are given. */
export interface EngineSettings {
  adminUrl?: string;
  publicHost: string;
  publicPort: number;
}

/**
 * Every mutating step is idempotent: a provisioning or deletion job that died half-way
 * is simply run again, and a second run neither fails nor does anything twice.
 */
export interface DatabaseEngine {
  readonly engine: EngineName;
  isAvailable(): boolean;
  provision(db: TenantDatabase): Promise<void>;
  deprovision(db: TenantRef): Promise<void>;
  connectionDetails(db: TenantDatabase): ConnectionDetails;
  /** Writes a backup to `file` (atomically: a temp file renamed at the end). */
  backup(db: TenantRef, file: string): Promise<BackupArtifact>;
  /** Puts the tenant's data back to what the backup holds. */
  restore(db: TenantRef, file: string): Promise<void>;
  metrics(db: TenantRef): Promise<EngineMetrics>;
  /** Connects with the tenant's own credentials, never the admin ones. */
  health(db: TenantDatabase): Promise<HealthReport>;
  close(): Promise<void>;
}

export class EngineUnavailableError extends Error {
  constructor(readonly engine: EngineName) {
    super(`the ${engine} engine is not configured on this service`);
    this.name = 'EngineUnavailableError';
  }
}

/** The tenant's database is not on the engine (dropped behind our back, or never made). */
export class EngineObjectMissingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineObjectMissingError';
  }
}
