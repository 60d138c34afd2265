import { Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { childElements, parseUntrustedXml } from '../protocol/strict-xml';
import { NS, STATUS } from '../protocol/saml-urns';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** What the test SP shows after a sign-in: every check it made, then what the assertion says. */
export interface AssertionReport {
  checks: Check[];
  valid: boolean;
  nameId?: string;
  nameIdFormat?: string;
  attributes: { name: string; values: string[] }[];
  /** The Response re-indented for reading (not what was signed). */
  xml: string;
  /** The Response exactly as received, base64: what a signature check must be run on. */
  receivedBase64: string;
}

export interface Expectations {
  idpCertPem: string;
  idpEntityId: string;
  acsUrl: string;
  audience: string;
  /** The ID of the AuthnRequest this browser sent, when the test SP remembers one. */
  inResponseTo?: string;
  now: Date;
}

/**
 * Decodes a posted SAMLResponse and checks it as a careful SP would: XML-DSig signatures verified
 * by xml-crypto against the IdP's certificate (not the one in KeyInfo) and bound to the element
 * they sign, status, issuer, audience, recipient, InResponseTo and validity window.
 */
export function inspectSamlResponse(samlResponse: string, expected: Expectations): AssertionReport {
  const checks: Check[] = [];
  const received = Buffer.from(samlResponse, 'base64');
  const receivedBase64 = received.toString('base64');
  const xml = received.toString('utf8');
  let root: Element;
  try {
    root = parseUntrustedXml(xml);
  } catch (err) {
    return {
      checks: [{ name: 'Well-formed XML', ok: false, detail: (err as Error).message }],
      valid: false,
      attributes: [],
      xml,
      receivedBase64,
    };
  }
  const response = root.localName === 'Response' && root.namespaceURI === NS.protocol ? root : undefined;
  checks.push({ name: 'A samlp:Response', ok: response !== undefined, detail: `root element ${root.tagName}` });
  const assertion = response ? child(response, NS.assertion, 'Assertion') : undefined;
  checks.push({
    name: 'Carries one Assertion',
    ok: assertion !== undefined,
    detail: assertion ? 'saml:Assertion present' : 'no saml:Assertion',
  });

  const signed = [response, assertion]
    .filter((el): el is Element => el !== undefined)
    .map((el) => verifySignature(xml, el, expected.idpCertPem));
  const anyValid = signed.some((s) => s.ok);
  for (const s of signed.filter((s) => s.present)) checks.push(s.check);
  if (!signed.some((s) => s.present)) {
    checks.push({ name: 'Signature', ok: false, detail: 'neither the Response nor the Assertion is signed' });
  }

  const status = response ? child(child(response, NS.protocol, 'Status'), NS.protocol, 'StatusCode')?.getAttribute('Value') : undefined;
  checks.push({ name: 'Status', ok: status === STATUS.success, detail: status ?? 'missing' });

  const issuer = text(child(assertion, NS.assertion, 'Issuer'));
  checks.push({ name: 'Issuer is this IdP', ok: issuer === expected.idpEntityId, detail: issuer ?? 'missing' });

  const conditions = child(assertion, NS.assertion, 'Conditions');
  const audience = text(child(child(conditions, NS.assertion, 'AudienceRestriction'), NS.assertion, 'Audience'));
  checks.push({ name: 'Audience is this SP', ok: audience === expected.audience, detail: audience ?? 'missing' });
  checks.push(window('Conditions validity', conditions?.getAttribute('NotBefore'), conditions?.getAttribute('NotOnOrAfter'), expected.now));

  const subject = child(assertion, NS.assertion, 'Subject');
  const nameIdEl = child(subject, NS.assertion, 'NameID');
  const confirmation = child(child(subject, NS.assertion, 'SubjectConfirmation'), NS.assertion, 'SubjectConfirmationData');
  const recipient = confirmation?.getAttribute('Recipient');
  checks.push({ name: 'Recipient is this ACS URL', ok: recipient === expected.acsUrl, detail: recipient ?? 'missing' });
  checks.push(window('Subject confirmation not expired', undefined, confirmation?.getAttribute('NotOnOrAfter'), expected.now));
  const inResponseTo = response?.getAttribute('InResponseTo') || undefined;
  checks.push({
    name: 'InResponseTo matches the request this browser sent',
    ok: expected.inResponseTo !== undefined && inResponseTo === expected.inResponseTo,
    detail: expected.inResponseTo
      ? `${inResponseTo ?? 'missing'} (expected ${expected.inResponseTo})`
      : 'this browser started no request here',
  });

  const statement = child(assertion, NS.assertion, 'AttributeStatement');
  const attributes = (statement ? childElements(statement) : [])
    .filter((el) => el.localName === 'Attribute')
    .map((el) => ({
      name: el.getAttribute('Name') ?? '',
      values: childElements(el)
        .filter((v) => v.localName === 'AttributeValue')
        .map((v) => v.textContent ?? ''),
    }));
  return {
    checks,
    valid: anyValid && checks.every((c) => c.ok),
    nameId: text(nameIdEl),
    nameIdFormat: nameIdEl?.getAttribute('Format') ?? undefined,
    attributes,
    xml: indentXml(xml),
    receivedBase64,
  };
}

function verifySignature(xml: string, signedElement: Element, certPem: string): { present: boolean; ok: boolean; check: Check } {
  const name = `${signedElement.localName} signature (xml-crypto, IdP certificate)`;
  const signature = child(signedElement, NS.dsig, 'Signature');
  if (!signature) return { present: false, ok: false, check: { name, ok: false, detail: 'not signed' } };
  const id = signedElement.getAttribute('ID');
  const references = Array.from(signature.getElementsByTagNameNS(NS.dsig, 'Reference'));
  if (references.length !== 1 || references[0].getAttribute('URI') !== `#${id}`) {
    return { present: true, ok: false, check: { name, ok: false, detail: `the signature does not reference this element (#${id})` } };
  }
  try {
    const verifier = new SignedXml({ publicCert: certPem, getCertFromKeyInfo: () => null });
    verifier.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
    const ok = verifier.checkSignature(xml);
    return { present: true, ok, check: { name, ok, detail: ok ? `valid RSA-SHA256 over #${id}` : 'invalid' } };
  } catch (err) {
    return { present: true, ok: false, check: { name, ok: false, detail: (err as Error).message } };
  }
}

function window(name: string, notBefore: string | null | undefined, notOnOrAfter: string | null | undefined, now: Date): Check {
  if (!notOnOrAfter) return { name, ok: false, detail: 'NotOnOrAfter missing' };
  const ok = (!notBefore || new Date(notBefore) <= now) && now < new Date(notOnOrAfter);
  return { name, ok, detail: `${notBefore ? `${notBefore} … ` : 'until '}${notOnOrAfter}` };
}

function child(parent: Element | undefined, ns: string, localName: string): Element | undefined {
  if (!parent) return undefined;
  return childElements(parent).find((el) => el.localName === localName && el.namespaceURI === ns);
}

function text(el: Element | undefined): string | undefined {
  return el ? (el.textContent ?? '').trim() : undefined;
}

/** Re-indents the XML for reading (verification used the bytes as received). */
export function indentXml(xml: string): string {
  const tokens = xml.replace(/>\s+</g, '><').match(/<[^>]+>|[^<]+/g) ?? [];
  const lines: string[] = [];
  const pad = (depth: number) => '  '.repeat(Math.max(0, depth));
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.startsWith('</')) {
      depth--;
      lines.push(pad(depth) + token);
    } else if (token.startsWith('<?') || token.startsWith('<!') || token.endsWith('/>')) {
      lines.push(pad(depth) + token);
    } else if (token.startsWith('<')) {
      const inner = tokens[i + 1];
      if (inner !== undefined && !inner.startsWith('<') && tokens[i + 2]?.startsWith('</')) {
        lines.push(pad(depth) + token + inner + tokens[i + 2]);
        i += 2;
      } else {
        lines.push(pad(depth) + token);
        depth++;
      }
    } else {
      lines.push(pad(depth) + token.trim());
    }
  }
  return lines.join('\n');
}
