import { Controller, Get, Inject, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '../../common/auth/auth.decorator';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ScimJson } from '../protocol/scim-response';
import { ScimError } from '../scim.errors';
import { DomainError } from '../../common/errors';
import { listOf, resourceType, schema, serviceProviderConfig } from './discovery.documents';

/** RFC 7644 §4 discovery. Read-only: any other method is a 405 with Allow (the exception filter, from the router). */
@ApiTags('scim')
@Controller('scim/v2')
@Auth('scim')
export class ScimDiscoveryController {
  private readonly baseUrl: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.baseUrl = config.PUBLIC_BASE_URL;
  }

  @ScimJson()
  @Get('ServiceProviderConfig')
  serviceProviderConfig() {
    return serviceProviderConfig(this.baseUrl);
  }

  @ScimJson()
  @Get('ResourceTypes')
  resourceTypes() {
    return listOf([resourceType(this.baseUrl, 'User'), resourceType(this.baseUrl, 'Group')]);
  }

  @ScimJson()
  @Get('ResourceTypes/:name')
  resourceType(@Param('name') name: string) {
    const match = (['User', 'Group'] as const).find((n) => n.toLowerCase() === name.toLowerCase());
    if (!match) throw new DomainError('not_found', `ResourceType ${name} not found`);
    return resourceType(this.baseUrl, match);
  }

  @ScimJson()
  @Get('Schemas')
  schemas() {
    return listOf([
      schema(this.baseUrl, 'urn:ietf:params:scim:schemas:core:2.0:User')!,
      schema(this.baseUrl, 'urn:ietf:params:scim:schemas:core:2.0:Group')!,
    ]);
  }

  @ScimJson()
  @Get('Schemas/:id')
  schema(@Param('id') id: string) {
    const doc = schema(this.baseUrl, id);
    if (!doc) throw new DomainError('not_found', `Schema ${id} not found`);
    return doc;
  }

  /** Bulk is not supported (spec); say so rather than 404. */
  @Post('Bulk')
  bulk(): never {
    throw new ScimError('invalidSyntax', 'bulk operations are not supported (see /ServiceProviderConfig)');
  }
}
