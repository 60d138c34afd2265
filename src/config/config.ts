import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, validateSync } from 'class-validator';
import { ORIGIN_LIST } from './origins';

/** Booleans are parsed explicitly: "false", "False", "0" and "no" are false (an empty value is unset: the default). */
const toBool = ({ value }: { value: unknown }) => {
  if (typeof value === 'boolean') return value;
  if (value === undefined) return undefined;
  return ['true', '1', 'yes', 'on'].includes(String(value).trim().toLowerCase());
};
const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
/** `1.1.1.1`, `127.0.0.1:5353`, `2001:db8::1` or `[2001:db8::1]:53`, comma-separated (what dns.Resolver#setServers takes). */
const DNS_SERVER = String.raw`(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|[0-9a-f:]*:[0-9a-f:]*|\[[0-9a-f:]+\](?::\d{1,5})?)`;
const DNS_SERVER_LIST = new RegExp(`^${DNS_SERVER}(?:\\s*,\\s*${DNS_SERVER})*$`, 'i');

/**
 * Every environment variable the service reads. Validated once at boot; the
 * error names every missing or invalid variable at once.
 */
export class EnvSchema {
  @IsIn(['development', 'production', 'test']) NODE_ENV = 'development';
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsString() HOST = '0.0.0.0';
  /** Processes serving the port (one per core when 0 or unset); the zero-config embedded database keeps one. */
  @Transform(toInt) @IsInt() @Min(0) @Max(64) WEB_CONCURRENCY = 0;
  /** Absolute base URL clients use to reach this service (SCIM meta.location, emails, SAML). */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  PUBLIC_BASE_URL?: string;
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL = 'info';
  /** `pretty` (readable lines) or `json` (one JSON object a line); unset: pretty in development, JSON otherwise. */
  @IsOptional() @Transform(emptyToUndefined) @IsIn(['pretty', 'json']) LOG_FORMAT?: 'pretty' | 'json';
  /** Write logs to this file (appending) instead of stdout. */
  @IsOptional() @Transform(emptyToUndefined) @IsString() LOG_FILE?: string;

  // Stores
  @IsOptional() @Transform(emptyToUndefined) @IsString() DATABASE_URL?: string;
  @Transform(toInt) @IsInt() @Min(1) @Max(200) DATABASE_POOL_SIZE = 10;
  @Transform(toInt) @IsInt() @Min(100) DATABASE_STATEMENT_TIMEOUT_MS = 15000;
  /** `transaction`: DATABASE_URL is a pooler in transaction mode (PgBouncer ≥ 1.18); nothing relies on session state there. */
  @IsIn(['none', 'transaction']) DATABASE_POOLER: 'none' | 'transaction' = 'none';
  /** A direct (unpooled) connection for what needs a session: migrations' advisory lock, the credential cache's LISTEN. */
  @IsOptional() @Transform(emptyToUndefined) @IsString() DATABASE_DIRECT_URL?: string;
  @IsString() DATA_DIR = './data';
  @IsOptional() @Transform(emptyToUndefined) @IsString() REDIS_URL?: string;
  @IsString() REDIS_KEY_PREFIX = 'idsvc:';

  // HTTP
  /** When set, the first X-Forwarded-For hop is the client address. */
  @Transform(toBool) @IsBoolean() TRUST_PROXY = false;
  @Transform(toBool) @IsBoolean() COOKIE_SECURE = false;
  @IsString() BODY_LIMIT = '256kb';
  @Transform(toBool) @IsBoolean() DEVELOPER_SIGNUP_ENABLED = true;
  @Transform(toInt) @IsInt() @Min(60) DEVELOPER_SESSION_TTL_SECONDS = 60 * 60 * 24 * 7;
  /**
   * Origins (scheme://host[:port], comma-separated) of dashboards allowed to call the developer API
   * with credentials from the browser. Empty: no CORS. `*` is refused: never a wildcard with credentials.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(ORIGIN_LIST, { message: 'CORS_ORIGINS must be comma-separated origins like https://app.example.com (no path, no *)' })
  CORS_ORIGINS?: string;
  /** Domain attribute of the developer session and CSRF cookies (e.g. example.com for a dashboard on app.example.com). */
  @IsOptional() @Transform(emptyToUndefined) @Matches(/^\.?[a-z0-9-]+(\.[a-z0-9-]+)*$/i) COOKIE_DOMAIN?: string;

  // Secrets (generated and kept under DATA_DIR when unset outside production)
  @IsOptional() @Transform(emptyToUndefined) @IsString() AUTH_JWT_SECRET?: string;
  @Transform(toInt) @IsInt() @Min(60) ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
  @Transform(toInt) @IsInt() @Min(60) REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
  /** Keyring "kid:base64key[,kid:base64key…]"; the first key encrypts, all decrypt. */
  @IsOptional() @Transform(emptyToUndefined) @IsString() SECRETS_ENCRYPTION_KEY?: string;

  /**
   * Audit checkpoint signing keyring "kid:base64-PKCS8-DER-Ed25519[,kid:…]": the first key signs,
   * every key listed is published at /developer/audit/keys/ (decision 0710).
   */
  @IsOptional() @Transform(emptyToUndefined) @IsString() AUDIT_SIGNING_KEYS?: string;

  // Audit tamper evidence (docs/audit.md)
  @Transform(toBool) @IsBoolean() AUDIT_SEALER_ENABLED = true;
  /** How often the sealer binds new audit events into their workspace's chain. */
  @Transform(toInt) @IsInt() @Min(10) AUDIT_SEAL_INTERVAL_MS = 1000;
  /** How often a sealing pass looks at the whole log instead of the rows after the oldest open transaction. */
  @Transform(toInt) @IsInt() @Min(0) AUDIT_SEAL_SWEEP_INTERVAL_MS = 10 * 60_000;
  /** A workspace whose chain moved gets a new signed checkpoint at most this often (0: every sealing pass). */
  @Transform(toInt) @IsInt() @Min(0) AUDIT_CHECKPOINT_INTERVAL_MS = 60_000;
  /** Verification calls an event "inserted" when it is older than an earlier link's sealing by more than this. */
  @Transform(toInt) @IsInt() @Min(1000) AUDIT_LATE_SEAL_TOLERANCE_MS = 5 * 60_000;

  // Directory events (docs/events.md)
  /** The sealer numbers committed directory events at once after a commit of this instance, and at least this often. */
  @Transform(toInt) @IsInt() @Min(10) DIRECTORY_EVENTS_SEAL_INTERVAL_MS = 250;
  /** How long the feed keeps an event (the newest event of each workspace is always kept: it holds the sequence). */
  @Transform(toInt) @IsInt() @Min(1) DIRECTORY_EVENTS_RETENTION_DAYS = 30;

  // Webhooks (Standard Webhooks; docs/audit.md)
  /**
   * Allow http: and loopback/private/link-local targets. Unset: allowed in development (a receiver on
   * the developer's machine), refused otherwise (decision 0309).
   */
  @IsOptional() @Transform(toBool) @IsBoolean() WEBHOOK_ALLOW_PRIVATE_TARGETS?: boolean;
  @Transform(toInt) @IsInt() @Min(10) WEBHOOK_DISPATCH_INTERVAL_MS = 500;
  @Transform(toInt) @IsInt() @Min(100) WEBHOOK_TIMEOUT_MS = 10_000;
  /** First retry delay; each next one doubles (with jitter) up to WEBHOOK_RETRY_MAX_DELAY_MS. */
  @Transform(toInt) @IsInt() @Min(10) WEBHOOK_RETRY_BASE_MS = 5_000;
  @Transform(toInt) @IsInt() @Min(10) WEBHOOK_RETRY_MAX_DELAY_MS = 60 * 60_000;
  /** A delivery is retried for this long; an endpoint failing this long is disabled. */
  @Transform(toInt) @IsInt() @Min(100) WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60_000;

  // Mail
  @IsOptional() @Transform(emptyToUndefined) @IsString() SMTP_URL?: string;
  @IsString() MAIL_FROM = 'Identity Service <no-reply@localhost>';
  @IsOptional() @IsString() MAIL_DIR?: string;

  // Jobs
  @Transform(toBool) @IsBoolean() JOBS_WORKER_ENABLED = true;
  @Transform(toInt) @IsInt() @Min(10) JOBS_POLL_INTERVAL_MS = 1000;
  @Transform(toInt) @IsInt() @Min(1000) JOBS_LEASE_MS = 5 * 60 * 1000;
  /** Jobs run side by side per instance (a slow webhook endpoint then holds one lane, not all). */
  @Transform(toInt) @IsInt() @Min(1) @Max(32) JOBS_CONCURRENCY = 4;

  // Rate limits (per IP / per account, per minute)
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_AUTH_PER_MINUTE = 20;
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_ACCOUNT_PER_MINUTE = 10;

  // Per-tenant request budgets (docs/scaling.md): SCIM per workspace, the developer API per developer
  /** Sustained requests per second per workspace (SCIM) or developer (developer API); 0 turns the rate off. */
  @Transform(toInt) @IsInt() @Min(0) TENANT_RATE_PER_SECOND = 100;
  /** Requests a tenant may send at once after a quiet spell (the bucket size); 0: twice the rate. */
  @Transform(toInt) @IsInt() @Min(0) TENANT_BURST = 0;
  /** A tenant's requests in flight per instance; beyond it 429 (one tenant cannot hold the database pool). 0: no cap. */
  @Transform(toInt) @IsInt() @Min(0) TENANT_MAX_IN_FLIGHT = 8;

  // SAML IdP
  @IsOptional() @Transform(emptyToUndefined) @IsString() SAML_IDP_ENTITY_ID?: string;
  @IsOptional() @Transform(emptyToUndefined) @IsString() SAML_IDP_SSO_URL?: string;
  @IsOptional() @Transform(emptyToUndefined) @IsString() SAML_IDP_CERT_PEM?: string;
  @IsOptional() @Transform(emptyToUndefined) @IsString() SAML_IDP_KEY_PEM?: string;
  @IsOptional() @Transform(emptyToUndefined) @IsString() SAML_IDP_NEXT_CERT_PEM?: string;
  @IsString() SAML_IDP_LOGIN_URL = '/auth/login/';
  /** Key of the pairwise identifiers (persistent NameID, SessionIndex); optional: generated and kept in the database in production, under DATA_DIR elsewhere. Never rotate it: SPs key accounts on them. */
  @IsOptional() @Transform(emptyToUndefined) @IsString() SAML_NAMEID_SECRET?: string;
  /** SSO requests per client address per minute (/saml/sso*), counted like the sign-in limits. */
  @Transform(toInt) @IsInt() @Min(1) RATE_LIMIT_SAML_SSO_PER_MINUTE = 120;
  /** Requests parked for sign-in per client address; the oldest go first. */
  @Transform(toInt) @IsInt() @Min(1) SAML_PENDING_PER_CLIENT = 20;
  /** Worker threads per process that build and sign SSO Responses; unset: one when this process has a core to spare, else none (decision 1026). */
  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(16) SAML_SIGNING_THREADS?: number;

  // OAuth authorization server (src/oauth/)
  /** Lifetime of the access tokens the token endpoint issues: 5 min to 6 h (decision 0902). */
  @Transform(toInt) @IsInt() @Min(300) @Max(21600) OAUTH_ACCESS_TOKEN_TTL_SECONDS = 3600;
  /** Let JWKS URLs of clients and trusted issuers point at private or loopback addresses (tests, closed networks). */
  @Transform(toBool) @IsBoolean() OAUTH_JWKS_ALLOW_PRIVATE_TARGETS = false;

  // Enterprise SSO connections (src/sso-connections/)
  /** DNS servers the domain verification asks for TXT records, comma-separated `ip` or `ip:port`; unset: the system resolver. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(DNS_SERVER_LIST, { message: 'SSO_DNS_SERVERS must be comma-separated IP addresses, each with an optional :port' })
  SSO_DNS_SERVERS?: string;

  // Anomaly detection
  @IsOptional() @Transform(emptyToUndefined) @IsString() GEO_TOKEN?: string;
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }) GEO_API_URL = 'https://ipinfo.io';
  @Transform(toInt) @IsInt() @Min(0) GEO_CACHE_TTL = 86400;
  @Transform(toInt) @IsInt() @Min(1) GEO_TIMEOUT_MS = 2500;
  @Transform(toInt) @IsInt() @Min(1) ANOMALY_IMPOSSIBLE_TRAVEL_KMH = 800;
  @Transform(toInt) @IsInt() @Min(0) ANOMALY_IMPOSSIBLE_TRAVEL_MIN_KM = 100;
  @Transform(toBool) @IsBoolean() ANOMALY_EMAIL_ON_NEW_DEVICE = true;
  /** Off: no detector runs after sign-in (an operator's kill switch; the benchmark's baseline). */
  @Transform(toBool) @IsBoolean() ANOMALY_DETECTION_ENABLED = true;

  // Managed databases
  @IsOptional() @Transform(emptyToUndefined) @IsString() MANAGED_POSTGRES_ADMIN_URL?: string;
  @IsOptional() @Transform(emptyToUndefined) @IsString() MANAGED_REDIS_ADMIN_URL?: string;
  @IsOptional() @Transform(emptyToUndefined) @IsString() MANAGED_MONGODB_ADMIN_URL?: string;
  @IsString() MANAGED_POSTGRES_PUBLIC_HOST = 'localhost';
  @Transform(toInt) @IsInt() MANAGED_POSTGRES_PUBLIC_PORT = 6432;
  /** sslmode written into Postgres connection strings (the public endpoint's TLS; `disable` only for loopback). */
  @IsIn(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']) MANAGED_POSTGRES_SSL_MODE = 'require';
  @IsString() MANAGED_REDIS_PUBLIC_HOST = 'localhost';
  @Transform(toInt) @IsInt() MANAGED_REDIS_PUBLIC_PORT = 6379;
  @IsString() MANAGED_MONGODB_PUBLIC_HOST = 'localhost';
  @Transform(toInt) @IsInt() MANAGED_MONGODB_PUBLIC_PORT = 27017;
  @IsOptional() @IsString() BACKUP_DIR?: string;
}

export type AppConfig = Readonly<
  EnvSchema & {
    PUBLIC_BASE_URL: string;
    MAIL_DIR: string;
    BACKUP_DIR: string;
    LOG_FORMAT: 'pretty' | 'json';
    WEBHOOK_ALLOW_PRIVATE_TARGETS: boolean;
  }
>;

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Names of variables that hold secrets: masked wherever config is printed. */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'REDIS_URL',
  'AUTH_JWT_SECRET',
  'SECRETS_ENCRYPTION_KEY',
  'AUDIT_SIGNING_KEYS',
  'SMTP_URL',
  'SAML_IDP_KEY_PEM',
  'SAML_NAMEID_SECRET',
  'GEO_TOKEN',
  'MANAGED_POSTGRES_ADMIN_URL',
  'MANAGED_REDIS_ADMIN_URL',
  'MANAGED_MONGODB_ADMIN_URL',
] as const;

/** A configuration the service cannot run with; main.ts prints it as a list, without a stack trace. */
export class ConfigError extends Error {}

const CONFIG_HEADER = 'Invalid environment configuration:';

/**
 * The text an operator sees when the boot stops on configuration: a header, one problem per line,
 * and where the variables are described. Errors thrown with several problems ("Invalid environment
 * configuration:" then indented lines) keep their lines; any other configuration error is one problem.
 */
export function configurationReport(err: Error): string {
  const lines = err.message.split('\n');
  const problems = lines[0] === CONFIG_HEADER ? lines.slice(1).map((l) => l.trim()) : [err.message];
  return [
    `The service did not start: ${problems.length === 1 ? 'a configuration problem' : `${problems.length} configuration problems`}.`,
    ...problems.filter(Boolean).map((p) => `  - ${p}`),
    'Every variable is described in .env.example and docs/operations.md.',
  ].join('\n');
}

/**
 * The value a variable was given, or undefined when it is unset. An empty (or blank) value means
 * unset for every variable, so `KEY=` in a copy of .env.example keeps the default (decision 0308).
 */
function givenValue(env: NodeJS.ProcessEnv, key: string): string | undefined {
  const value = env[key];
  return value === undefined || value.trim() === '' ? undefined : value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new EnvSchema());
  const input: Record<string, unknown> = {};
  for (const key of known) {
    const value = givenValue(env, key);
    if (value !== undefined) input[key] = value;
  }
  const parsed = plainToInstance(EnvSchema, input);
  const errors = validateSync(parsed, { whitelist: true });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const secret = (SECRET_VARIABLES as readonly string[]).includes(e.property);
      // The value as given (the parsed one may already be NaN or null), masked for secrets.
      const shown = secret ? '(hidden)' : JSON.stringify(input[e.property]);
      return `  ${e.property}=${shown}: ${Object.values(e.constraints ?? {}).join('; ')}`;
    });
    throw new ConfigError(`${CONFIG_HEADER}\n${lines.join('\n')}`);
  }
  const publicBase = (parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, '');
  return Object.freeze({
    ...parsed,
    PUBLIC_BASE_URL: publicBase,
    MAIL_DIR: parsed.MAIL_DIR ?? `${parsed.DATA_DIR}/mail`,
    BACKUP_DIR: parsed.BACKUP_DIR ?? `${parsed.DATA_DIR}/backups`,
    LOG_FORMAT: parsed.LOG_FORMAT ?? (parsed.NODE_ENV === 'development' ? 'pretty' : 'json'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: parsed.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? parsed.NODE_ENV === 'development',
  });
}
