import { renderErrorPage } from '../../common/html/error-page.view';
import { renderLoginPage } from './login-page.view';
import { renderVerifyEmailPage } from './verify-email-page.view';

const base = { action: '/auth/login/', csrfToken: 'tok"en', next: '/saml/sso/finish/', context: { workspaceId: 'ws-1' } };

describe('hosted login page', () => {
  it('labels every field and sets autocomplete for password managers', () => {
    const page = renderLoginPage(base);
    expect(page).toContain('<label for="email">Email</label>');
    expect(page).toContain('<label for="password">Password</label>');
    expect(page).toContain('autocomplete="username email"');
    expect(page).toContain('autocomplete="current-password"');
    expect(page).toMatch(/<html lang="en">/);
  });

  it('carries the CSRF token, next and context as escaped hidden fields', () => {
    const page = renderLoginPage(base);
    expect(page).toContain('name="csrf_token" value="tok&quot;en"');
    expect(page).toContain('name="next" value="/saml/sso/finish/"');
    expect(page).toContain('name="workspace_id" value="ws-1"');
    expect(page).not.toContain('name="client_id"');
  });

  it('announces an error in a live region and marks the fields invalid', () => {
    const page = renderLoginPage({ ...base, email: 'a@b.co', error: 'Incorrect email or password.' });
    expect(page).toMatch(/role="alert" aria-live="assertive">Incorrect email or password\.<\/div>/);
    expect(page).toContain('aria-invalid="true"');
    expect(page).toContain('value="a@b.co"');
  });

  it('escapes a hostile email echoed back into the form', () => {
    const page = renderLoginPage({ ...base, email: '"><script>alert(1)</script>' });
    expect(page).not.toContain('<script>alert');
  });

  it('works without JavaScript', () => {
    expect(renderLoginPage(base)).not.toMatch(/<script/i);
  });
});

describe('verify email page', () => {
  it('asks for the code with one-time-code autocomplete and offers a resend', () => {
    const page = renderVerifyEmailPage({
      ...base,
      action: '/auth/login/verify/',
      resendAction: '/auth/login/verify/resend/',
      email: 'a@b.co',
    });
    expect(page).toContain('autocomplete="one-time-code"');
    expect(page).toContain('action="/auth/login/verify/resend/"');
    expect(page).toContain('<strong>a@b.co</strong>');
  });
});

describe('error page', () => {
  it('shows a title, the message and a reference, never markup from the message', () => {
    const page = renderErrorPage({ status: 400, message: '<b>bad</b>', requestId: 'req-1' });
    expect(page).toContain('This request could not be completed');
    expect(page).toContain('&lt;b&gt;bad&lt;/b&gt;');
    expect(page).toContain('req-1');
  });
});
