import { Doc, Errors, ReturnsText } from '../api-docs/decorators';
import { Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { IdpRuntime } from './idp/idp-runtime';
import { PublicApi } from '../common/controller-kinds';

@PublicApi('saml/metadata', 'saml')
export class SamlMetadataController {
  constructor(private readonly idp: IdpRuntime) {}

  /** The document is rendered once at boot; 503 not_configured while IdP variables are missing. */
  @Get()
  @Doc(
    'Identity provider metadata',
    'The SAML 2.0 EntityDescriptor to give a service provider: entity id, SSO URL (HTTP-Redirect and HTTP-POST bindings) and signing certificate(s). 503 until the SAML_IDP_* variables are set.',
  )
  @ReturnsText(
    200,
    'application/samlmetadata+xml',
    'EntityDescriptor of the identity provider',
    '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://localhost:3000/saml/metadata/">…</md:EntityDescriptor>',
  )
  @Errors([503, 'not_configured', 'SAML is not configured: details.missing names the variables'])
  metadata(@Res({ passthrough: true }) res: Response): string {
    const xml = this.idp.metadataXml();
    // Set only on success, so a 503 keeps the JSON error body's content type.
    res.setHeader('Content-Type', 'application/samlmetadata+xml; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=300');
    return xml;
  }
}
