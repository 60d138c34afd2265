import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../common/auth/auth.decorator';
import { IdpRuntime } from './idp/idp-runtime';

@ApiTags('saml')
@Controller('saml/metadata')
@Auth('public')
export class SamlMetadataController {
  constructor(private readonly idp: IdpRuntime) {}

  /** The document is rendered once at boot; 503 not_configured while IdP variables are missing. */
  @Get()
  @ApiProduces('application/samlmetadata+xml')
  @ApiOkResponse({ description: 'EntityDescriptor of the identity provider' })
  metadata(@Res({ passthrough: true }) res: Response): string {
    const xml = this.idp.metadataXml();
    // Set only on success, so a 503 keeps the JSON error body's content type.
    res.setHeader('Content-Type', 'application/samlmetadata+xml; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=300');
    return xml;
  }
}
