import { AnomalyKind, AnomalySeverity } from '../detectors/detector.types';
import { countryName, describePlace } from '../detectors/place';

/** Kinds that warrant an email (spec D); new_ip alone is informational and only listed. */
const MAILING_KINDS: ReadonlySet<AnomalyKind> = new Set(['new_device', 'new_country', 'impossible_travel']);

const SEVERITY_RANK: Record<AnomalySeverity, number> = { critical: 0, warn: 1, info: 2 };

export interface AlertableAnomaly {
  kind: AnomalyKind;
  severity: AnomalySeverity;
  message: string;
}

/**
 * Whether one sign-in's findings warrant an email. One email per sign-in lists every kind that
 * fired (a product rule, decision 0406); with ANOMALY_EMAIL_ON_NEW_DEVICE=False a new_device finding alone does not
 * mail, but is listed when another kind mails anyway (decision 0406).
 */
export function shouldEmail(anomalies: readonly AlertableAnomaly[], emailOnNewDevice: boolean): boolean {
  return anomalies.some((a) => MAILING_KINDS.has(a.kind) && (a.kind !== 'new_device' || emailOnNewDevice));
}

/** Most severe first, so the email leads with what matters most. */
export function orderForAlert<T extends AlertableAnomaly>(anomalies: readonly T[]): T[] {
  return [...anomalies].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
}

export interface AlertFacts {
  clientName: string | null;
  firstName: string;
  email: string;
  ipAddress: string | null;
  userAgent: string | null;
  city: string | null;
  country: string | null;
  signedInAt: Date;
  sessionsUrl: string;
}

/** Placeholder values of the new_device_alert template (names fixed by the template catalog). */
export function alertTemplateValues(anomalies: readonly AlertableAnomaly[], facts: AlertFacts): Record<string, string> {
  const ordered = orderForAlert(anomalies);
  return {
    'oauth_client.name': facts.clientName ?? 'your account',
    'anomaly.message': ordered.map((a) => a.message).join(' '),
    'anomaly.kind': ordered[0]?.kind ?? '',
    'anomaly.kinds': ordered.map((a) => a.kind).join(', '),
    // Empty when unknown, so "{{city}} {{country}}" in a custom template never reads "Unknown city unknown country".
    city: facts.city ?? '',
    country: countryName(facts.country) ?? '',
    location: facts.city || facts.country ? describePlace(facts.city, facts.country) : 'Unknown location',
    ip_address: facts.ipAddress ?? 'unknown',
    user_agent: facts.userAgent ?? 'unknown',
    when: formatWhen(facts.signedInAt),
    sessions_url: facts.sessionsUrl,
    first_name: facts.firstName || 'there',
    email: facts.email,
  };
}

/** "10 January 2026, 12:00 UTC": unambiguous for readers anywhere. */
export function formatWhen(at: Date): string {
  const date = at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${date}, ${time} UTC`;
}
