/** The signing certificate of SAML metadata XML as a PEM file (the first X509Certificate element). */
export function certificateFromMetadata(xml: string): string | undefined {
  const match = /<(?:[A-Za-z0-9_-]+:)?X509Certificate>([\s\S]*?)<\/(?:[A-Za-z0-9_-]+:)?X509Certificate>/.exec(xml);
  if (!match) return undefined;
  const base64 = match[1].replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return undefined;
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
