/** The validator ships without typings: resolves true when the XML is valid against the SAML 2.0 schemas, rejects otherwise. */
declare module '@authenio/samlify-xmllint-wasm' {
  export function validate(xml: string): Promise<true>;
}
