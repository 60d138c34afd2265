import { Body, Delete, Param, Query } from '@nestjs/common';
import { Doc, NoContentRoute } from '../api-docs/decorators';
import { DeveloperCreate, DeveloperList, noSuch, ReadRoute } from '../api-docs/routes';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { type WorkspaceScope, WorkspaceInBody, WorkspaceInQuery } from '../workspaces/workspace-scoped';
import { CreateSsfReceiverDto } from './dto/ssf-receiver.dto';
import { SsfReceiversService } from './ssf-receivers.service';
import { SsfReceiverCreatedSchema, SsfReceiverSchema } from './ssf-receivers.views';
import { WorkspaceQueryDto } from '../workspaces/dto/workspace.dto';

const NO_RECEIVER = noSuch('receiver');

@DeveloperApi('developer/ssf/receivers', 'shared signals')
export class SsfReceiversController {
  constructor(private readonly receivers: SsfReceiversService) {}

  @Doc(
    'Register a Shared Signals receiver',
    "A receiver of the workspace's security events (SSF 1.0, CAEP, RISC). Answers its OAuth client credentials, the secret shown once: it gets an access token from POST /oauth/token with grant_type=client_credentials&scope=ssf and manages its stream at the endpoints /.well-known/ssf-configuration names.",
  )
  @DeveloperCreate(SsfReceiverCreatedSchema, 'The receiver and its client secret, shown this once')
  create(@WorkspaceInBody() scope: WorkspaceScope, @Body() dto: CreateSsfReceiverDto, @ReqMeta() meta: RequestMeta) {
    return this.receivers.create(scope, dto, meta);
  }

  @Doc(
    'List the Shared Signals receivers of a workspace',
    "With each one's stream (status, delivery, events) and its SETs counted by state.",
  )
  @DeveloperList(SsfReceiverSchema, 'The receivers')
  async list(@WorkspaceInQuery() scope: WorkspaceScope, @Query() _query: WorkspaceQueryDto) {
    return { results: await this.receivers.list(scope) };
  }

  @Doc('Show a Shared Signals receiver', 'With its stream (status, delivery, events) and its SETs counted by state.')
  @ReadRoute(':id', SsfReceiverSchema, 'The receiver', NO_RECEIVER)
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.receivers.get(p, id);
  }

  @Doc('Delete a Shared Signals receiver', 'Its stream and undelivered SETs go with it; its access tokens are refused on their next use.')
  @NoContentRoute(Delete(':id'), 'Deleted', NO_RECEIVER)
  delete(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.receivers.delete(p, id, meta);
  }
}
