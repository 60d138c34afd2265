import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { SsfReceiverPrincipal } from '../common/auth/principal';
import { isUuid } from '../common/ids';
import { AccessTokensService } from '../oauth/tokens/access-tokens.service';
import { SSF_SCOPE, SsfClientStore } from './ssf-client.store';
import { SsfReceiversRepository } from './ssf-receivers.repository';

/**
 * Authorization: Bearer on the stream management and poll endpoints (@Auth('ssf')): an access
 * token of a receiver, scope ssf, whose receiver still exists (one indexed read: deleting the
 * receiver kills its tokens on their next use).
 */
@Injectable()
export class SsfBearerStrategy extends PassportStrategy(Strategy, 'ssf') {
  constructor(
    private readonly tokens: AccessTokensService,
    private readonly store: SsfClientStore,
    private readonly receivers: SsfReceiversRepository,
  ) {
    super();
  }

  async validate(token: string): Promise<SsfReceiverPrincipal | false> {
    const claims = await this.tokens.verify(token, this.store.audience);
    if (!claims || claims.clientKind !== this.store.kind || !isUuid(claims.clientRowId) || !isUuid(claims.workspaceId)) return false;
    if (!claims.scope.split(' ').includes(SSF_SCOPE)) return false;
    const receiver = await this.receivers.find(null, claims.workspaceId, claims.clientRowId);
    if (!receiver) return false;
    return { kind: 'ssf', receiverId: receiver.id, workspaceId: receiver.workspaceId, clientId: receiver.clientId };
  }
}
