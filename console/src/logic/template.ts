/** Example values the preview puts in place of each placeholder a template may use. */
export const SAMPLE_VALUES: Record<string, string> = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  code: '428193',
  app_name: 'Acme',
  expires_in_minutes: '15',
  ip_address: '203.0.113.7',
  device: 'Firefox on macOS',
  location: 'Lisbon, Portugal',
  time: '2026-11-24 12:00 UTC',
};

/** `{{ name }}` placeholders of a template text, in order of first use. */
export function placeholdersIn(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g)) seen.add(match[1]);
  return [...seen];
}

/** Fills the placeholders with sample values; an unknown placeholder stays visible as `{{name}}`. */
export function fillPlaceholders(text: string, values: Record<string, string> = SAMPLE_VALUES): string {
  return text.replace(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g, (whole, name: string) => (name in values ? values[name] : whole));
}

/** Placeholders the text uses that the template does not offer (the server refuses them or leaves them empty). */
export function unknownPlaceholders(text: string, allowed: readonly string[]): string[] {
  return placeholdersIn(text).filter((name) => !allowed.includes(name));
}
