import type { SessionView } from '../../sessions/sessions.service';
import type { ApplicationGrantView } from '../application-grants';
import { html } from '../../common/html/html';
import { pageLayout } from '../../common/html/page-layout';
import { accountLinks } from './account-links';

export interface SessionsPageModel {
  email: string;
  /** The person's application (or workspace), shown as on the sign-in pages. */
  brand?: string | null;
  sessions: SessionView[];
  csrfToken: string;
  /** Where the sign-out forms post. */
  revokeAction: string;
  /** Third-party applications the person allowed (OpenID consents), each revocable. */
  applications?: ApplicationGrantView[];
  revokeApplicationAction?: string;
  notice?: string | null;
}

function place(s: SessionView): string {
  const parts = [s.city, s.country].filter((p): p is string => !!p);
  return parts.length ? parts.join(', ') : 'Unknown location';
}

function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** The signed-in end user's sessions, each with a sign-out button (what the alert mail links to). */
export function renderSessionsPage(model: SessionsPageModel): string {
  const rows = model.sessions.map(
    (s) =>
      html`<tr>
        <td>
          <strong>${s.browser_family} on ${s.os_family}</strong>${s.current ? html` <span class="hint">(this browser)</span>` : ''}
          <div class="hint">
            ${s.kind === 'browser' ? 'Hosted sign-in page' : 'Application'} · ${s.ip_address ?? 'unknown IP'} · ${place(s)}
          </div>
          <div class="hint">Signed in ${when(s.created_at)} · last active ${when(s.last_seen_at)}</div>
        </td>
        <td>
          ${takeBackForm(model, model.revokeAction, ['session_id', s.id], `Sign out ${s.browser_family} on ${s.os_family}`, 'Sign out')}
        </td>
      </tr>`,
  );
  const content = html`<h1>Your sessions</h1>
    <p class="lead">Signed in as ${model.email}. If you do not recognise a session, sign it out and change your password.</p>
    ${model.notice ? html`<div class="alert ok" role="status">${model.notice}</div>` : ''}
    <table id="sessions">
      ${
        rows.length
          ? rows
          : html`<tr>
              <td>No active sessions.</td>
            </tr>`
      }
    </table>
    ${applicationsSection(model)} ${accountLinks('sessions')}`;
  return pageLayout({ title: 'Your sessions', brand: model.brand, wide: true }, content);
}

/** "Applications you allowed": each consent with a button that takes it back. */
function applicationsSection(model: SessionsPageModel) {
  const apps = model.applications ?? [];
  const action = model.revokeApplicationAction;
  if (!apps.length || !action) return '';
  return html`<h2>Applications you allowed</h2>
    <table id="applications">
      ${apps.map(
        (a) =>
          html`<tr>
            <td>
              <strong>${a.name}</strong>
              <div class="hint">Can: ${a.scope} · allowed ${when(a.grantedAt.toISOString())}</div>
            </td>
            <td>${takeBackForm(model, action, ['application_id', a.id], `Revoke access of ${a.name}`, 'Revoke access')}</td>
          </tr>`,
      )}
    </table>`;
}

/** One button that posts the id of what it takes back (a session, an application's access) with the page's CSRF token. */
function takeBackForm(model: SessionsPageModel, action: string, [field, id]: [string, string], label: string, text: string) {
  return html`<form method="post" action="${action}">
    <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
    <input type="hidden" name="${field}" value="${id}" />
    <button type="submit" class="secondary" aria-label="${label}">${text}</button>
  </form>`;
}
