import { Inject, Param, Post } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { Doc } from '../../api-docs/decorators';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { ScimDocumentRoute } from '../protocol/scim-routes';
import { ScimError } from '../scim.errors';
import { DomainError } from '../../common/errors';
import { listOf, resourceType, schema, serviceProviderConfig } from './discovery.documents';
import { COMMON_ERRORS } from '../../common/common.errors';
import { ScimDiscoveryDocumentSchema, ScimDiscoveryListSchema } from './discovery.schemas';
import { ScimApi } from '../../common/controller-kinds';

/** RFC 7644 §4 discovery. Read-only: any other method is a 405 with Allow (the exception filter, from the router). */
@ScimApi('scim/v2')
export class ScimDiscoveryController {
  private readonly baseUrl: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.baseUrl = config.PUBLIC_BASE_URL;
  }

  @Doc(
    'Service provider configuration',
    'What this SCIM server supports (RFC 7643 §5): PATCH and filter yes; bulk, sort, ETags and changePassword no.',
  )
  @ScimDocumentRoute('ServiceProviderConfig', ScimDiscoveryDocumentSchema, 'The ServiceProviderConfig')
  serviceProviderConfig() {
    return serviceProviderConfig(this.baseUrl);
  }

  @Doc('Resource types', 'User and Group (RFC 7643 §6).')
  @ScimDocumentRoute('ResourceTypes', ScimDiscoveryListSchema, 'A ListResponse of ResourceType documents')
  resourceTypes() {
    return listOf([resourceType(this.baseUrl, 'User'), resourceType(this.baseUrl, 'Group')]);
  }

  @Doc('One resource type', 'User or Group (case-insensitive).')
  @ScimDocumentRoute('ResourceTypes/:name', ScimDiscoveryDocumentSchema, 'The ResourceType', [404, '', 'No resource type of this name'])
  resourceType(@Param('name') name: string) {
    const match = (['User', 'Group'] as const).find((n) => n.toLowerCase() === name.toLowerCase());
    if (!match) throw new DomainError(COMMON_ERRORS.not_found, `ResourceType ${name} not found`);
    return resourceType(this.baseUrl, match);
  }

  @Doc('Schemas', 'The core User and Group schemas with the attributes this server supports (RFC 7643 §7).')
  @ScimDocumentRoute('Schemas', ScimDiscoveryListSchema, 'A ListResponse of Schema documents')
  schemas() {
    return listOf([
      schema(this.baseUrl, 'urn:ietf:params:scim:schemas:core:2.0:User')!,
      schema(this.baseUrl, 'urn:ietf:params:scim:schemas:core:2.0:Group')!,
    ]);
  }

  @Doc('One schema', 'By its URN, e.g. urn:ietf:params:scim:schemas:core:2.0:User.')
  @ScimDocumentRoute('Schemas/:id', ScimDiscoveryDocumentSchema, 'The Schema', [404, '', 'No schema with this id'])
  schema(@Param('id') id: string) {
    const doc = schema(this.baseUrl, id);
    if (!doc) throw new DomainError(COMMON_ERRORS.not_found, `Schema ${id} not found`);
    return doc;
  }

  /** Bulk is not supported (spec); say so rather than 404. */
  @ApiExcludeEndpoint()
  @Post('Bulk')
  bulk(): never {
    throw new ScimError('invalidSyntax', 'bulk operations are not supported (see /ServiceProviderConfig)');
  }
}
