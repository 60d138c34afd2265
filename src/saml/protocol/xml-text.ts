/**
 * Markup characters, plus CR, LF and tab as character references: a parser turns a
 * literal CR into LF, and LF or tab inside an attribute value into a space
 * (XML 1.0 §2.11, §3.3.3); as references they come back unchanged.
 */
const XML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};

/**
 * Characters XML 1.0 forbids anywhere (C0 controls except tab/newline/CR, lone
 * surrogates, U+FFFE/U+FFFF). They are dropped rather than escaped: no escape
 * makes them legal, and a verifier would reject the whole document.
 */
const ILLEGAL_XML_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escape a value for XML text content or a double- or single-quoted attribute. */
export function escapeXml(value: unknown): string {
  return String(value ?? '')
    .replace(ILLEGAL_XML_CHARS, '')
    .replace(/[&<>"'\r\n\t]/g, (c) => XML_ENTITIES[c]);
}

/** The base64 body of a PEM certificate (no armour, no whitespace), as metadata and KeyInfo carry it. */
export function pemBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
}
