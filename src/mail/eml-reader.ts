/**
 * Reads back the .eml files this service writes when mail goes to files (nodemailer's stream transport):
 * headers with RFC 2047 encoded words, and a text/plain part in 7bit, 8bit, quoted-printable or base64,
 * alone or inside multipart/alternative. Only what the development mailbox shows; not a general MIME parser.
 */
export interface ReadMail {
  subject: string;
  to: string;
  text: string | null;
}

export function readEml(raw: string): ReadMail {
  const { headers, body } = splitEntity(raw);
  return { subject: decodeWords(headers.get('subject') ?? ''), to: decodeWords(headers.get('to') ?? ''), text: plainText(headers, body) };
}

/**
 * The six-digit codes a mail carries (subject first, then body), each once: six digits standing alone, not
 * part of a longer number, a word or an address (`ab123456@example.com` names a person, it is no code).
 */
export function codesIn(...texts: Array<string | null>): string[] {
  const found = texts.flatMap((text) => [...(text ?? '').matchAll(/(?<![\w.@+-])[0-9]{6}(?![\w@-])/g)].map((m) => m[0]));
  return [...new Set(found)];
}

/** The http(s) links in a mail's text, each once. */
export function linksIn(text: string | null): string[] {
  return [...new Set([...(text ?? '').matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0].replace(/[.,;:]+$/, '')))];
}

/** Headers (lower-case names, folded lines joined) and the body of one MIME entity (null without a blank line after the headers). */
function splitEntity(raw: string): { headers: Map<string, string>; body: string | null } {
  const text = raw.replace(/\r\n/g, '\n');
  const end = text.indexOf('\n\n');
  const head = end === -1 ? text : text.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end === -1 ? null : text.slice(end + 2) };
}

function plainText(headers: Map<string, string>, body: string | null): string | null {
  if (body === null) return null;
  const type = headers.get('content-type') ?? 'text/plain';
  if (/^multipart\//i.test(type)) {
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (!boundary) return null;
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const entity = splitEntity(part.replace(/^\n/, ''));
      const found = plainText(entity.headers, entity.body);
      if (found !== null) return found;
    }
    return null;
  }
  if (!/^text\/plain/i.test(type)) return null;
  return decodeBody(body.replace(/\n$/, ''), headers.get('content-transfer-encoding') ?? '7bit');
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return quotedPrintable(body.replace(/=\n/g, ''));
    default:
      return body;
  }
}

/** =XX escapes as UTF-8 bytes (RFC 2045 §6.7); soft line breaks already removed. */
function quotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?charset?Q|B?…?=); whitespace between two adjacent words is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_all, kind: string, data: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : quotedPrintable(data.replace(/_/g, ' ')),
    );
}
