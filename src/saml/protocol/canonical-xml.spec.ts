import { DOMParser } from '@xmldom/xmldom';
import fc from 'fast-check';
import { SignedXml, ExclusiveCanonicalization } from 'xml-crypto';
import { generateDevKeyPair } from '../idp/dev-keypair';
import { canonicalXml, writeXml, XmlElement } from './canonical-xml';
import { pemBody } from './xml-text';
import { signElement } from './xml-signer';
import { createPrivateKey } from 'node:crypto';

const NAMESPACES = {
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
  xs: 'http://www.w3.org/2001/XMLSchema',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
};

function document(value: string, attribute: string): XmlElement {
  return {
    name: 'saml:Assertion',
    attributes: [
      ['Version', '2.0'],
      ['ID', '_abc'],
      ['IssueInstant', attribute],
    ],
    children: [
      { name: 'saml:Issuer', text: value },
      {
        name: 'saml:Empty',
        attributes: [
          ['Z', attribute],
          ['A', value],
        ],
      },
      { name: 'saml:AttributeValue', attributes: [['xsi:type', 'xs:string']], text: value },
    ],
  };
}

/** What xml-crypto's exclusive canonicalization makes of the text we write, parsed back. */
function parsedCanonical(xml: string): string {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement!;
  return new ExclusiveCanonicalization().process(root as unknown as Element, {}) as unknown as string;
}

describe('canonical XML written from structure', () => {
  it('equals the exclusive canonical form a parser derives from the written text, for any text', () => {
    const text = fc.string({ unit: 'binary', maxLength: 30 });
    fc.assert(
      fc.property(text, text, (value, attribute) => {
        const element = document(value, attribute);
        expect(canonicalXml(element, NAMESPACES)).toBe(parsedCanonical(writeXml(element, NAMESPACES)));
      }),
      { numRuns: 300 },
    );
  });

  it('declares a prefix only where it is first used and sorts attributes', () => {
    expect(canonicalXml(document('a', 'b'), NAMESPACES)).toBe(
      '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_abc" IssueInstant="b" Version="2.0">' +
        '<saml:Issuer>a</saml:Issuer><saml:Empty A="a" Z="b"></saml:Empty>' +
        '<saml:AttributeValue xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">a</saml:AttributeValue></saml:Assertion>',
    );
  });

  it('signs so that xml-crypto verifies the signature, and refuses a changed value', () => {
    const pair = generateDevKeyPair('canonical-xml spec');
    const key = { privateKey: createPrivateKey(pair.keyPem), certBase64: pemBody(pair.certPem) };
    const signed = signElement(document('Ada & <Lovelace>\r\n', 'x"y\tz'), NAMESPACES, key);
    const verify = (xml: string) => {
      const doc = new DOMParser().parseFromString(xml, 'text/xml');
      const check = new SignedXml({ publicCert: pair.certPem });
      check.loadSignature(doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0] as unknown as Node);
      try {
        return check.checkSignature(xml);
      } catch {
        return false;
      }
    };
    expect(verify(signed)).toBe(true);
    expect(verify(signed.replace('Ada &amp;', 'Eve &amp;'))).toBe(false);
  });
});
