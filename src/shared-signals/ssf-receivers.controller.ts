import { Delete, Param } from '@nestjs/common';
import { Doc, NoContentRoute } from '../api-docs/decorators';
import { noSuch } from '../api-docs/routes';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import { WorkspaceResourceRoutes } from '../workspaces/workspace-resource-routes';
import { CreateSsfReceiverDto } from './dto/ssf-receiver.dto';
import { SsfReceiversService } from './ssf-receivers.service';
import { SsfReceiverCreatedSchema, SsfReceiverSchema } from './ssf-receivers.views';

@DeveloperApi('developer/ssf/receivers', 'shared signals')
export class SsfReceiversController extends WorkspaceResourceRoutes({
  noun: 'receiver',
  schema: SsfReceiverSchema,
  create: {
    doc: [
      'Register a Shared Signals receiver',
      "A receiver of the workspace's security events (SSF 1.0, CAEP, RISC). Answers its OAuth client credentials, the secret shown once: it gets an access token from POST /oauth/token with grant_type=client_credentials&scope=ssf and manages its stream at the endpoints /.well-known/ssf-configuration names.",
    ],
    body: CreateSsfReceiverDto,
    created: SsfReceiverCreatedSchema,
    answer: 'The receiver and its client secret, shown this once',
  },
  list: {
    doc: [
      'List the Shared Signals receivers of a workspace',
      "With each one's stream (status, delivery, events) and its SETs counted by state.",
    ],
    answer: 'The receivers',
  },
  get: {
    doc: ['Show a Shared Signals receiver', 'With its stream (status, delivery, events) and its SETs counted by state.'],
    answer: 'The receiver',
  },
}) {
  constructor(protected readonly resources: SsfReceiversService) {
    super();
  }

  @Doc('Delete a Shared Signals receiver', 'Its stream and undelivered SETs go with it; its access tokens are refused on their next use.')
  @NoContentRoute(Delete(':id'), 'Deleted', noSuch('receiver'))
  delete(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.resources.delete(p, id, meta);
  }
}
