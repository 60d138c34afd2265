import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { DomainError } from '../common/errors';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { END_USER_ERRORS } from '../end-user-directory/end-users.errors';
import { CSRF_COOKIE, formToken, LoginCsrf } from './login-csrf';

/**
 * The CSRF check of the server-rendered page forms (hosted login, sessions, security, consent, sign-out):
 * one provider instead of a LoginCsrf and a cookie helper written into each controller (decision 0969).
 */
@Injectable()
export class PageForms {
  private readonly csrf: LoginCsrf;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.csrf = new LoginCsrf(config.AUTH_JWT_SECRET ?? '');
  }

  /** The form token for this browser; sets the CSRF cookie when it is missing (or when asked to renew it). */
  token(req: Request, res: Response, renew = false): string {
    return formToken(this.csrf, req, res, this.config.COOKIE_SECURE, renew);
  }

  /** Whether the posted form carries this browser's token (its `csrf_token` field). */
  posted(req: Request): boolean {
    const body = req.body as Record<string, unknown> | undefined;
    return this.csrf.check((req.cookies as Record<string, unknown> | undefined)?.[CSRF_COOKIE], body?.csrf_token);
  }
}

const EXPIRED_MESSAGE = Symbol('page-form-expired-message');

/** Refuses a post without its form's token: 403 `csrf_failed`, not cached, before the handler runs. */
@Injectable()
export class PageFormGuard implements CanActivate {
  constructor(
    private readonly forms: PageForms,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    if (this.forms.posted(http.getRequest<Request>())) return true;
    http.getResponse<Response>().setHeader('Cache-Control', 'no-store');
    const message = this.reflector.get<string | undefined>(EXPIRED_MESSAGE, context.getHandler());
    throw new DomainError(END_USER_ERRORS.csrf_failed, message ?? 'This form has expired; reload the page');
  }
}

/**
 * For a handler that answers a page's own script (JSON): the post must carry the page's form token,
 * else 403 `csrf_failed` with `expired` as its message. Forms that answer a page draw it again instead
 * (they ask PageForms.posted themselves).
 */
export const PageFormPost = (expired: string) => applyDecorators(SetMetadata(EXPIRED_MESSAGE, expired), UseGuards(PageFormGuard));

/** The fields of a posted page form as the body parser gives them: read and checked by the service, never trusted. */
export type FormFields = Record<string, unknown>;
