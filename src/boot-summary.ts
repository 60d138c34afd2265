import { resolve } from 'node:path';
import type { AppConfig } from './config/config';

export interface BootFacts {
  config: AppConfig;
  /** The environment as given, before development defaults filled it in. */
  given: { DATABASE_URL?: string; AUTH_JWT_SECRET?: string; SECRETS_ENCRYPTION_KEY?: string };
  saml: string;
  envFile?: string;
}

/** What a person starting the service needs to know, as label/value rows (no secret values). */
export function bootSummaryRows({ config, given, saml, envFile }: BootFacts): [string, string][] {
  const base = config.PUBLIC_BASE_URL;
  const rows: [string, string][] = [
    ['URL', `${base}  (bound to ${config.HOST}:${config.PORT}, ${config.NODE_ENV})`],
    ['API docs', `${base}/docs  ·  ${base}/openapi.json`],
    ['Console', `${base}/console/`],
    ['Start here', `${base}/  ·  docs/quickstart.md`],
    [
      'Database',
      given.DATABASE_URL
        ? `PostgreSQL at ${hostOf(given.DATABASE_URL)}`
        : `embedded PostgreSQL (PGlite) in ${resolve(config.DATA_DIR, 'pg')}`,
    ],
    ['Mail', config.SMTP_URL ? `SMTP via ${hostOf(config.SMTP_URL)}` : `written as .eml files to ${resolve(config.MAIL_DIR)}`],
    ['Redis', config.REDIS_URL ? hostOf(config.REDIS_URL) : 'none (one instance: caches and rate limits in memory)'],
    ['SAML IdP', saml],
  ];
  if (!given.AUTH_JWT_SECRET || !given.SECRETS_ENCRYPTION_KEY) {
    rows.push(['Secrets', `GENERATED for development in ${resolve(config.DATA_DIR, 'dev-secrets.json')}`]);
  }
  if (config.NODE_ENV !== 'production') rows.push(['Demo data', `npm run seed  ·  test SP ${base}/saml/test-sp/`]);
  if (envFile) rows.push(['.env', `read from ${envFile}`]);
  return rows;
}

/** The block printed once after boot in LOG_FORMAT=pretty. */
export function bootSummaryText(facts: BootFacts): string {
  const rows = bootSummaryRows(facts);
  const width = Math.max(...rows.map(([label]) => label.length));
  const rule = '─'.repeat(72);
  return [
    rule,
    `  identity service listening on ${facts.config.PUBLIC_BASE_URL}`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    rule,
    '',
  ].join('\n');
}

function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
  } catch {
    return '(unparseable URL)';
  }
}
