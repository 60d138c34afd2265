import { escapeHtml } from '../../common/html/escape';

/**
 * Our own `{{placeholder}}` renderer (the mailer's template engines stay unused, see docs/decisions/0303-mail-outbox.md).
 * Names are dotted paths (`oauth_client.name`); values are HTML-escaped in HTML bodies and never
 * evaluated, so a first name like `{{code}}` or `<script>` stays inert text.
 */
export type TemplateValue = string | number | boolean | null | undefined | Date;
export interface TemplateValues {
  [key: string]: TemplateValue | TemplateValues;
}

const ANY_TAG = /\{\{(.*?)\}\}/gs;
const PLACEHOLDER_NAME = /^\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*$/;
const HTML_HINT = /<\/?[a-z][a-z0-9]*(\s[^>]*)?>/i;

export interface RenderedMessage {
  subject: string;
  html: string | null;
  text: string;
}

/** Every `{{...}}` in the text that is not an allowed placeholder (malformed ones included). */
export function unknownPlaceholders(text: string, allowed: readonly string[]): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(ANY_TAG)) {
    const name = PLACEHOLDER_NAME.exec(match[1])?.[1];
    if (!name || !allowed.includes(name)) unknown.add(match[0]);
  }
  return [...unknown];
}

export function isHtmlBody(body: string): boolean {
  return HTML_HINT.test(body);
}

/** Look a dotted name up as a flat key first (`{'oauth_client.name': x}`), then as a nested path. */
export function lookupValue(values: TemplateValues, name: string): string {
  const hasFlat = Object.prototype.hasOwnProperty.call(values, name);
  const found = hasFlat ? values[name] : walk(values, name.split('.'));
  if (found instanceof Date) return found.toISOString();
  if (typeof found === 'string' || typeof found === 'number' || typeof found === 'boolean') return String(found);
  return '';
}

function walk(values: TemplateValues, path: string[]): TemplateValue | TemplateValues {
  let node: TemplateValue | TemplateValues = values;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || node instanceof Date) return undefined;
    if (!Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as TemplateValues)[key];
  }
  return node;
}

/** Replace placeholders in one string; unknown or malformed tags are left as written. */
export function renderString(text: string, values: TemplateValues, encode: (value: string) => string = (v) => v): string {
  return text.replace(ANY_TAG, (whole, inner: string) => {
    const name = PLACEHOLDER_NAME.exec(inner)?.[1];
    return name ? encode(lookupValue(values, name)) : whole;
  });
}

/** Header values must never carry a line break (header injection through a first name). */
function oneLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, ' ').trim();
}

export function renderMessage(template: { subject: string; body: string }, values: TemplateValues): RenderedMessage {
  const subject = oneLine(renderString(template.subject, values, oneLine));
  if (!isHtmlBody(template.body)) {
    return { subject, html: null, text: renderString(template.body, values) };
  }
  const html = renderString(template.body, values, escapeHtml);
  return { subject, html, text: htmlToText(html) };
}

/** A plain-text alternative of an HTML body: good enough for mail clients that show text only. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(head|style|script)[^>]*>[\s\S]*?<\/\1>/gi, '')
      .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, label: string) =>
        label.replace(/<[^>]+>/g, '').trim() === decodeEntities(href) ? href : `${label} (${href})`,
      )
      .replace(/<br\s*\/?>/gi, '\n')
      // A table row reads "Label: value" on one line.
      .replace(/<\/t[dh]>\s*(?=<t[dh][\s>])/gi, ': ')
      .replace(/<\/tr>\s*/gi, '\n')
      .replace(/<\/(p|div|h[1-6]|li|table)>/gi, '\n\n')
      .replace(/<li[^>]*>/gi, '- ')
      .replace(/<[^>]+>/g, ''),
  )
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
}
