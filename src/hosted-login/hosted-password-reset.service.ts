import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { PasswordService } from '../end-users/password.service';
import { HostedContexts } from './hosted-contexts';
import type { HostedInput } from './hosted-input';
import { INCOMPLETE_LINK, pageOf, SignInResult } from './hosted-outcome';

/** "Forgot your password?" on the hosted pages: a code by mail, then a new password, through PasswordService as the API does. */
@Injectable()
export class HostedPasswordResetService {
  constructor(
    private readonly contexts: HostedContexts,
    private readonly passwords: PasswordService,
  ) {}

  async show(input: HostedInput): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
    return pageOf(200, { page: 'reset-request', brand: resolved.brand });
  }

  /** Always the same next page, whether or not an account matches (the API answers alike). */
  async request(input: HostedInput, request: RequestMeta): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
    const email = (input.email ?? '').trim().toLowerCase();
    if (!email.includes('@')) {
      return pageOf(400, { page: 'reset-request', brand: resolved.brand, error: 'Enter the email of your account.' });
    }
    await this.passwords.requestReset({ ...resetTarget(input), email }, request);
    return pageOf(200, { page: 'reset-confirm', brand: resolved.brand, email });
  }

  async confirm(input: HostedInput, request: RequestMeta): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
    const newPassword = input.newPassword ?? '';
    if (newPassword.length < 8 || newPassword.length > 256) {
      return pageOf(400, { page: 'reset-confirm', brand: resolved.brand, error: 'Choose a password of 8 to 256 characters.' });
    }
    try {
      await this.passwords.confirmReset(
        { ...resetTarget(input), email: input.email ?? '', code: input.code ?? '', new_password: newPassword },
        request,
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return pageOf(err.status, { page: 'reset-confirm', brand: resolved.brand, error: err.message });
    }
    return pageOf(200, { page: 'login', brand: resolved.brand, notice: 'Your password is set. Sign in with it.' });
  }
}

/** A client context resets that application's account; a workspace context, the directory account. */
function resetTarget(input: HostedInput): { client_id?: string; workspace_id?: string } {
  return input.context.clientId ? { client_id: input.context.clientId } : { workspace_id: input.context.workspaceId ?? undefined };
}
