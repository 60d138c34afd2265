import { dirname, join } from 'node:path';
import { DOMParser, Element, Node } from '@xmldom/xmldom';
import { refuse } from './saml-refusal';
import { XsdWorker } from './saml-schema-worker';

/**
 * Strict reading of inbound SAML XML: no DTD at all (refused before any parser sees the text, so
 * no entity is ever defined), every parser complaint fatal, one root, no processing instructions,
 * and elements that must hold text refused when they hold anything else (a comment inside a
 * NameID is the classic way to make the signature check and the reader see different values).
 */
const DTD_MARKUP = /<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;

// samlify bundles @xmldom/xmldom 0.8 typings that shadow 0.9's `onError` option for the compiler.
const parser = new DOMParser({
  onError: (level: string, message: string) => {
    throw new Error(`${level}: ${message}`);
  },
} as unknown as ConstructorParameters<typeof DOMParser>[0]);

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

export function hasDtd(xml: string): boolean {
  return DTD_MARKUP.test(xml);
}

export function parseStrict(xml: string): Element {
  if (hasDtd(xml)) refuse('malformed_response', 'the document contains a DTD (DOCTYPE or ENTITY)');
  let doc;
  try {
    doc = parser.parseFromString(xml, 'text/xml');
  } catch {
    return refuse('malformed_response', 'the document is not well-formed XML');
  }
  if (doc.doctype) refuse('malformed_response', 'the document contains a DTD');
  let roots = 0;
  for (let n = doc.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === n.ELEMENT_NODE) roots += 1;
    // xmldom shows the XML declaration as a processing instruction named "xml".
    if (n.nodeType === n.PROCESSING_INSTRUCTION_NODE && n.nodeName !== 'xml') {
      refuse('malformed_response', 'processing instructions are not allowed');
    }
  }
  if (roots !== 1 || !doc.documentElement) refuse('malformed_response', 'the document must have exactly one root element');
  return doc.documentElement;
}

export function children(node: Node, ns: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let n = node.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === n.ELEMENT_NODE && (n as Element).namespaceURI === ns && (n as Element).localName === localName) {
      out.push(n as Element);
    }
  }
  return out;
}

/** The only child of that name, or undefined; two of them is a malformed message. */
export function onlyChild(node: Node, ns: string, localName: string): Element | undefined {
  const found = children(node, ns, localName);
  if (found.length > 1) refuse('malformed_response', `more than one ${localName}`);
  return found[0];
}

/** Every descendant element of that name, at any depth. */
export function descendants(node: Element, ns: string, localName: string): Element[] {
  return Array.from(node.getElementsByTagNameNS(ns, localName) as unknown as ArrayLike<Element>);
}

/** Text of an element that may hold only text (Issuer, NameID, Audience, AttributeValue). */
export function pureText(el: Element, what: string): string {
  let text = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== n.TEXT_NODE && n.nodeType !== n.CDATA_SECTION_NODE) refuse('malformed_response', `${what} must contain only text`);
    text += n.nodeValue ?? '';
  }
  return text.trim();
}

export function attr(el: Element | undefined, name: string): string | undefined {
  const value = el?.getAttribute(name);
  return value === null || value === undefined || value === '' ? undefined : value;
}

const SCHEMA_DIR = join(dirname(require.resolve('@authenio/samlify-xmllint-wasm')), 'schemas');
const schema = new XsdWorker({
  root: 'saml-schema-protocol-2.0.xsd',
  files: Object.fromEntries(
    ['saml-schema-protocol-2.0.xsd', 'saml-schema-assertion-2.0.xsd', 'xmldsig-core-schema.xsd', 'xenc-schema.xsd'].map((name) => [
      name,
      join(SCHEMA_DIR, name),
    ]),
  ),
});

/**
 * The schema check before anything in a message is trusted: libxml2 against the OASIS SAML 2.0
 * protocol schema (with the assertion, XML Signature and XML Encryption schemas it imports) that
 * @authenio/samlify-xmllint-wasm ships. Nothing is logged (the message is the person's data,
 * decision 0421); the schema is compiled once per process in a worker thread (decision 0981).
 */
export async function validateAgainstSamlSchema(xml: string): Promise<true> {
  if (!(await schema.isValid(xml))) throw new Error('ERR_SCHEMA_INVALID');
  return true;
}
