import { Injectable } from '@nestjs/common';
import { isUuid } from '../common/ids';
import { EndUsersRepository, SignInScope } from '../end-user-directory/end-users.repository';
import type { LoginContext } from './views/login-page.view';

/** The accounts a hosted sign-in may pick from, and the name the pages show. */
export interface ResolvedContext {
  scope: SignInScope;
  brand: string;
  /** The application offers "Create an account" (allow_signup, decision 0317); a workspace's link never does. */
  signUp: boolean;
}

/**
 * The check every hosted sign-in request starts with: which accounts its link names. A public
 * client_id means that client's users, a workspace_id all of the workspace's users (SAML); the
 * password then decides between accounts with the same email. Null when the link names neither.
 */
@Injectable()
export class HostedContexts {
  constructor(private readonly users: EndUsersRepository) {}

  async resolve(context: LoginContext): Promise<ResolvedContext | null> {
    if (context.clientId) {
      try {
        const client = await this.users.clientByPublicId(context.clientId);
        return { scope: { workspaceId: client.workspaceId, oauthClientId: client.id }, brand: client.name, signUp: client.allowSignup };
      } catch {
        return null;
      }
    }
    if (context.workspaceId && isUuid(context.workspaceId)) {
      const name = await this.users.workspaceName(context.workspaceId);
      if (name !== null) return { scope: { workspaceId: context.workspaceId }, brand: name, signUp: false };
    }
    return null;
  }

  /** The name the signed-in person's pages carry (security, sessions): their application's, else their workspace's. */
  async brandOf(session: { workspaceId: string; oauthClientId: string | null }): Promise<string | null> {
    return this.users.brandName(session.workspaceId, session.oauthClientId);
  }
}
