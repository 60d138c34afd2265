/** Example values the preview puts in place of each placeholder a template may use. */
export const SAMPLE_VALUES: Record<string, string> = {
  code: '428193',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  'oauth_client.name': 'Acme',
  'anomaly.message': 'New sign-in from a new device',
  'anomaly.kind': 'new_device',
  'anomaly.kinds': 'new_device, new_country',
  city: 'Lisbon',
  country: 'Portugal',
  location: 'Lisbon, Portugal',
  ip_address: '203.0.113.7',
  user_agent: 'Firefox on macOS',
  when: '2026-11-24 12:00 UTC',
  sessions_url: 'https://app.example.com/account/sessions',
};

const PLACEHOLDER = /\{\{\s*([a-zA-Z0-9_.]+)\s*\}\}/g;

/** `{{ name }}` placeholders of a template text (dotted names allowed), in order of first use. */
export function placeholdersIn(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) seen.add(match[1]);
  return [...seen];
}

/** Fills the placeholders with sample values; an unknown placeholder stays visible as `{{name}}`. */
export function fillPlaceholders(
  text: string,
  values: Record<string, string> = SAMPLE_VALUES,
  encode: (v: string) => string = (v) => v,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (name in values ? encode(values[name]) : whole));
}

/** Placeholders the text uses that the template does not offer (the server refuses to save them). */
export function unknownPlaceholders(text: string, allowed: readonly string[]): string[] {
  return placeholdersIn(text).filter((name) => !allowed.includes(name));
}

/** Whether a body is HTML (the service sends it as an HTML mail with a text alternative) or plain text. */
export function isHtmlBody(body: string): boolean {
  return /<\/?[a-z][a-z0-9]*(\s[^>]*)?>/i.test(body);
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}
