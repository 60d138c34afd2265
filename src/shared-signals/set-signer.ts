import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { Clock } from '../common/clock';
import { OAuthServerInfo } from '../oauth/discovery/oauth-server-info';
import { SigningKeysService } from '../oauth/keys/signing-keys.service';

/** RFC 8417 §2.3: the media type of a SET, and so its `typ`. */
export const SET_TYPE = 'secevent+jwt';

export interface SetContent {
  /** The stream's audience: the receiver's client_id. */
  audience: string;
  subject: Record<string, string>;
  eventType: string;
  event: Record<string, unknown>;
  txn: string;
}

/**
 * Signs Security Event Tokens (RFC 8417, SSF 1.0 §4) with the authorization server's RS256 key
 * (decision 0524): receivers verify them against the one JWKS the configuration names
 * (`jwks_uri`, /oauth/jwks), which already publishes the next key ahead and keeps the last one.
 */
@Injectable()
export class SetSigner implements OnModuleInit {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly server: OAuthServerInfo,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.keys.ensureKey('RS256');
  }

  async sign(content: SetContent): Promise<{ jti: string; token: string }> {
    const key = this.keys.signingKey('RS256');
    const jti = randomUUID();
    const token = await new SignJWT({
      txn: content.txn,
      sub_id: content.subject,
      events: { [content.eventType]: content.event },
    })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: SET_TYPE })
      .setIssuer(this.server.issuer)
      .setAudience(content.audience)
      .setJti(jti)
      .setIssuedAt(Math.floor(this.clock.now().getTime() / 1000))
      .sign(key.privateKey);
    return { jti, token };
  }
}
