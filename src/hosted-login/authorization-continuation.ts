import { Injectable } from '@nestjs/common';
import type { BrowserSession } from './browser-sessions.service';
import { HostedLoginPorts } from './hosted-login-ports';

/**
 * A sign-in on the hosted pages whose `next` continues an OpenID authorization request answers it
 * at once (decision 0919): the OpenID provider decides, with the session just opened, what
 * `/oauth/authorize` would have answered the browser coming back — the client's redirect URI with
 * a code or an error, or the hosted login again (a step-up) — and the sign-in redirects there,
 * saving the browser the round trip. The provider sits above this module (it imports
 * HostedLoginModule), so its source declares itself with @HostedLoginPort('authorization-continuation')
 * (decision 0192); without one, or when the provider answers null, the sign-in redirects to `next`
 * as before.
 */
export interface AuthorizationContinuation {
  /** Where the browser goes instead of `next` (an absolute or relative URL), or null to follow `next`. */
  after(next: string, session: BrowserSession): Promise<string | null>;
}

/** The port the OpenID provider fills (the last one set wins). */
/** The hosted login's view of the declared source (decision 0192); none: follow `next`. */
@Injectable()
export class AuthorizationContinuationPort implements AuthorizationContinuation {
  constructor(private readonly ports: HostedLoginPorts) {}

  after(next: string, session: BrowserSession): Promise<string | null> {
    return this.ports.ask<AuthorizationContinuation, string | null>('authorization-continuation', (s) => s.after(next, session), null);
  }
}
