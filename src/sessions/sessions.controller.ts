import { Doc, NoContentRoute } from '../api-docs/decorators';
import { ListRoute } from '../api-docs/routes';
import { Delete, Param } from '@nestjs/common';
import { CurrentPrincipal } from '../common/auth/auth.decorator';
import type { EndUserPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { SessionsService } from './sessions.service';
import { EndUserSessionSchema } from './sessions.schemas';
import { EndUserApi } from '../common/controller-kinds';

@EndUserApi('user/security/sessions', 'end-user sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Doc(
    'List my sessions',
    "The calling end user's active sessions (API and browser), with device and place; `current` marks the caller's own.",
  )
  @ListRoute('', EndUserSessionSchema, 'Active sessions')
  async list(@CurrentPrincipal() principal: EndUserPrincipal) {
    return { results: await this.sessions.list(principal) };
  }

  @Doc('Sign a session out', "Revokes one of the caller's sessions and its refresh token; its access token stops working.")
  @NoContentRoute(Delete(':id'), 'Signed out', [404, 'not_found', "No such session among the caller's"])
  async revoke(@CurrentPrincipal() principal: EndUserPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta): Promise<void> {
    await this.sessions.revokeSession(principal, id, meta);
  }
}
