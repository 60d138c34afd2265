import { applyDecorators } from '@nestjs/common';
import { NoBody, ReturnsText } from '../../api-docs/decorators';

const LOCATION = {
  description: 'The redirect URI with code, state and iss, or with error; or the hosted login',
  schema: { type: 'string' as const },
};

/** What the authorization endpoint answers a browser: a redirect, or an HTML page (consent, or an error it may not redirect). */
export const authorizeResponses = () =>
  applyDecorators(
    NoBody(302, 'To the redirect URI (code or error), to the hosted login, or back here', { Location: LOCATION }),
    ReturnsText(200, 'text/html', 'The consent screen of a third-party application', '<!doctype html>…'),
    ReturnsText(
      400,
      'text/html',
      'Unknown client_id or an unregistered redirect_uri: an error page, nothing is redirected',
      '<!doctype html>…',
    ),
  );
