import { Doc } from '../../api-docs/decorators';
import { CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { ScimPrincipal } from '../../common/auth/principal';
import type { ListQuery } from '../protocol/list-query';
import { SearchParams } from '../protocol/scim-request';
import { ScimSearchService } from './scim-search.service';
import { ScimSearchRoute } from '../protocol/scim-routes';
import { ScimResourceListSchema } from './search.schemas';
import { ScimApi } from '../../common/controller-kinds';

/** POST /scim/v2/.search: a search across Users and Groups (RFC 7644 §3.4.3). */
@ScimApi('scim/v2')
export class ScimSearchController {
  constructor(private readonly searches: ScimSearchService) {}

  @Doc(
    'Search users and groups',
    "RFC 7644 §3.4.3 search from the root: users and groups of the token's workspace matching the filter, users first. A type is searched when the filter names only attributes it has (a userName filter finds no groups); a filter neither understands is invalidFilter.",
  )
  @ScimSearchRoute(ScimResourceListSchema, 'A ListResponse of users and groups', {
    all: {
      summary: 'Everything whose name starts with "eng"',
      value: { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], filter: 'displayName sw "eng"', count: 50 },
    },
  })
  search(@CurrentPrincipal() p: ScimPrincipal, @SearchParams() query: ListQuery) {
    return this.searches.search(p.workspaceId, query);
  }
}
