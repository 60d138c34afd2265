import { escapeXml, legalXmlChars } from './xml-text';

/**
 * An element of a document this service writes itself, kept as structure so that both its text and its
 * exclusive canonical form (xml-exc-c14n, no comments) come from the same values without parsing either.
 * Every element and attribute name is prefixed except plain attributes; the root declares every prefix.
 */
export interface XmlElement {
  /** Qualified name, e.g. `saml:Issuer`. */
  name: string;
  /** Attributes in document order; values unescaped. */
  attributes?: readonly (readonly [string, string])[];
  /** Unescaped text content (an element holds text or children, not both). */
  text?: string;
  children?: readonly XmlElement[];
}

/** The document text: the root declares `namespaces`, values escaped as everywhere else (xml-text.ts). */
export function writeXml(element: XmlElement, namespaces?: Readonly<Record<string, string>>, insertAfterFirstChild = ''): string {
  let out = `<${element.name}`;
  if (namespaces) for (const [prefix, uri] of Object.entries(namespaces)) out += ` xmlns:${prefix}="${escapeXml(uri)}"`;
  for (const [name, value] of element.attributes ?? []) out += ` ${name}="${escapeXml(value)}"`;
  if (element.text !== undefined) return `${out}>${escapeXml(element.text)}</${element.name}>`;
  if (!element.children?.length) return `${out}/>`;
  out += '>';
  element.children.forEach((child, i) => {
    out += writeXml(child);
    if (i === 0) out += insertAfterFirstChild;
  });
  return `${out}</${element.name}>`;
}

/**
 * The exclusive canonical form (https://www.w3.org/TR/xml-exc-c14n/) of `element` as the root of a
 * document whose root declares `namespaces`: each prefix declared on the outermost element that visibly
 * uses it (its own name or one of its attributes), declarations sorted by prefix, attributes by namespace
 * URI then local name, empty elements as start and end tag, and C14N's escaping of text and attributes.
 */
export function canonicalXml(element: XmlElement, namespaces: Readonly<Record<string, string>>): string {
  return canonicalElement(element, namespaces, new Set());
}

function canonicalElement(element: XmlElement, namespaces: Readonly<Record<string, string>>, rendered: ReadonlySet<string>): string {
  const used = new Set<string>([prefixOf(element.name)!]);
  const attributes = (element.attributes ?? []).map(([name, value]) => {
    const prefix = prefixOf(name);
    if (prefix) used.add(prefix);
    return { name, value, uri: prefix ? namespaceOf(prefix, namespaces) : '', local: prefix ? name.slice(prefix.length + 1) : name };
  });
  const declared = [...used].filter((p) => !rendered.has(p)).sort();
  let out = `<${element.name}`;
  for (const prefix of declared) out += ` xmlns:${prefix}="${canonicalAttributeValue(namespaceOf(prefix, namespaces))}"`;
  attributes.sort((a, b) => compare(a.uri, b.uri) || compare(a.local, b.local));
  for (const a of attributes) out += ` ${a.name}="${canonicalAttributeValue(a.value)}"`;
  out += '>';
  if (element.text !== undefined) out += canonicalText(element.text);
  const inner = declared.length ? new Set([...rendered, ...declared]) : rendered;
  for (const child of element.children ?? []) out += canonicalElement(child, namespaces, inner);
  return `${out}</${element.name}>`;
}

function prefixOf(name: string): string | undefined {
  const colon = name.indexOf(':');
  if (colon <= 0) return undefined;
  return name.slice(0, colon);
}

function namespaceOf(prefix: string, namespaces: Readonly<Record<string, string>>): string {
  const uri = namespaces[prefix];
  if (uri === undefined) throw new Error(`undeclared namespace prefix ${prefix}`);
  return uri;
}

/** Code-unit order, as C14N sorts (by UCS code point; our names and URIs are ASCII). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** C14N §2.3 text nodes: &, <, > and CR as references; everything else as is. */
function canonicalText(value: string): string {
  return legalXmlChars(value).replace(/[&<>\r]/g, (c) => CANONICAL_TEXT[c]);
}

/** C14N §2.3 attribute values: &, <, " and tab, LF, CR as references. */
function canonicalAttributeValue(value: string): string {
  return legalXmlChars(value).replace(/[&<"\t\n\r]/g, (c) => CANONICAL_ATTRIBUTE[c]);
}

const CANONICAL_TEXT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#xD;' };
const CANONICAL_ATTRIBUTE: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
};
