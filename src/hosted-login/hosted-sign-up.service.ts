import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { EndUsersService } from '../end-users/end-users.service';
import { HostedContexts } from './hosted-contexts';
import type { BrowserBinding, HostedInput } from './hosted-input';
import { INCOMPLETE_LINK, pageOf, SignInResult, SignInView } from './hosted-outcome';
import { SignInContinuations } from './sign-in-continuation';

/** Same bounds as the registration API (RegisterDto): 8 to 256 characters. */
export const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 256;

/** An application that has not turned sign-up on (allow_signup): nothing to fill in. */
const SIGN_UP_CLOSED: SignInResult = {
  kind: 'refused',
  status: 404,
  message: 'This application does not offer sign-up here. Ask its administrator for an account, or sign in.',
  retry: true,
};

/** What is wrong with the form's fields, in the words the page shows; null when both are fine. */
function formProblem(email: string, password: string): string | null {
  if (!isEmail(email) || email.length > 254) return 'Enter a valid email address.';
  if (password.length < PASSWORD_MIN_LENGTH) return `Choose a password of at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Choose a password of at most ${PASSWORD_MAX_LENGTH} characters.`;
  return null;
}

/**
 * "Create an account" on the hosted login of an application that allows it (decision 0317): the
 * account is registered as the API registers it (audited, the 6-digit code mailed), and the browser
 * gets the sign-in continuation an unverified sign-in gets, so once the code is entered the person
 * continues the authorization request they came with, without typing the password again.
 */
@Injectable()
export class HostedSignUpService {
  constructor(
    private readonly contexts: HostedContexts,
    private readonly endUsers: EndUsersService,
    private readonly continuations: SignInContinuations,
  ) {}

  async show(input: HostedInput): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
    if (!resolved.signUp) return SIGN_UP_CLOSED;
    return pageOf(200, { page: 'signup', brand: resolved.brand });
  }

  async submit(input: HostedInput, request: RequestMeta, browser?: BrowserBinding): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
    if (!resolved.signUp || !input.context.clientId) return SIGN_UP_CLOSED;
    const email = (input.email ?? '').trim().toLowerCase();
    const password = input.password ?? '';
    const problem = formProblem(email, password);
    if (problem) return pageOf(400, { page: 'signup', brand: resolved.brand, email, error: problem });
    let user;
    try {
      user = await this.endUsers.register({ client_id: input.context.clientId, email, password }, request);
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'email_taken') throw err;
      const error = 'An account with this email already exists. Sign in, or reset your password if you forgot it.';
      return pageOf(409, { page: 'signup', brand: resolved.brand, email, error });
    }
    const continuation =
      typeof browser?.csrfCookie === 'string'
        ? this.continuations.issue({ userId: user.id, workspaceId: resolved.scope.workspaceId }, browser.csrfCookie)
        : undefined;
    return {
      ...pageOf<SignInView>(201, { page: 'verify-email', brand: resolved.brand, email }),
      ...(continuation ? { continuation: { set: continuation } } : {}),
    };
  }
}
