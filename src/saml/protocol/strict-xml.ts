import { DOMParser, Element, Node } from '@xmldom/xmldom';
import { badRequest } from './saml.errors';

/**
 * Parses untrusted XML with no DTD at all: any DOCTYPE or ENTITY declaration is
 * refused before the parser sees it, so no entity (internal or external) is ever
 * defined, let alone expanded. Every parser warning or error is fatal, so a
 * document the parser had to "repair" is never trusted.
 */
const DTD_MARKUP = /<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;

// samlify bundles @xmldom/xmldom 0.8, whose ambient typings shadow 0.9's `onError`
// option for the compiler; at runtime this module loads 0.9.12 (checked in the spec).
const options = {
  onError: (level: string, message: string) => {
    throw new Error(`${level}: ${message}`);
  },
} as unknown as ConstructorParameters<typeof DOMParser>[0];
const parser = new DOMParser(options);

export function parseUntrustedXml(xml: string): Element {
  if (DTD_MARKUP.test(xml)) throw badRequest('The SAML request contains a DTD (DOCTYPE or ENTITY); these are refused');
  let doc;
  try {
    doc = parser.parseFromString(xml, 'text/xml');
  } catch {
    throw badRequest('The SAML request is not well-formed XML');
  }
  if (doc.doctype) throw badRequest('The SAML request contains a DTD (DOCTYPE or ENTITY); these are refused');
  const roots = childElements(doc as unknown as Node);
  if (roots.length !== 1 || !doc.documentElement) throw badRequest('The SAML request must have exactly one root element');
  for (let n = doc.firstChild; n; n = n.nextSibling) {
    // xmldom exposes the XML declaration itself as a processing instruction named "xml".
    if (n.nodeType === n.PROCESSING_INSTRUCTION_NODE && n.nodeName !== 'xml') {
      throw badRequest('Processing instructions are not allowed in a SAML request');
    }
  }
  return doc.documentElement;
}

export function childElements(node: Node): Element[] {
  const out: Element[] = [];
  for (let n = node.firstChild; n; n = n.nextSibling) if (n.nodeType === n.ELEMENT_NODE) out.push(n as Element);
  return out;
}

/**
 * Text of an element that may hold only text (Issuer, NameID). Comments or child
 * elements inside are refused: "a<!---->b" is the classic trick that makes two
 * libraries read different values from the same element.
 */
export function pureText(el: Element, what: string): string {
  let text = '';
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== n.TEXT_NODE) throw badRequest(`${what} must contain only text`);
    text += n.nodeValue ?? '';
  }
  return text.trim();
}
