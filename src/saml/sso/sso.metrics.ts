import { Counter, register } from 'prom-client';

/* prom-client keeps one global registry; reuse the metric when a test boots a second app. */
const NAME = 'saml_sso_unattributed_failures_total';

/**
 * SSO refusals that belong to no workspace (unknown Issuer, unreadable request): no developer
 * could read an audit row for them, and anyone can send them, so they are counted and logged
 * instead of stored (decision 0206).
 */
export const unattributedFailures =
  (register.getSingleMetric(NAME) as Counter | undefined) ??
  new Counter({
    name: NAME,
    help: 'SAML SSO requests refused before any service provider was identified, by reason',
    labelNames: ['reason'],
  });
