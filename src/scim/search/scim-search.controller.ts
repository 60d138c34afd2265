import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { ScimPrincipal } from '../../common/auth/principal';
import { ScimJson } from '../protocol/scim-response';
import { readSearchRequest } from '../protocol/search-request';
import { ScimSearchService } from './scim-search.service';

/** POST /scim/v2/.search: a search across Users and Groups (RFC 7644 §3.4.3). */
@ApiTags('scim')
@Controller('scim/v2')
@Auth('scim')
export class ScimSearchController {
  constructor(private readonly searches: ScimSearchService) {}

  @ScimJson()
  @Post('.search')
  @HttpCode(200)
  search(@CurrentPrincipal() p: ScimPrincipal, @Body() body: unknown) {
    return this.searches.search(p.workspaceId, readSearchRequest(body));
  }
}
