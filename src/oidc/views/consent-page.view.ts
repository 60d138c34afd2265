import { html } from '../../common/html/html';
import { pageLayout } from '../../common/html/page-layout';

export interface ConsentPageModel {
  action: string;
  csrfToken: string;
  appName: string;
  email: string;
  /** The scopes asked for, as the person reads them. */
  scopes: string[];
  /** The authorization request, posted back with the answer. */
  params: Readonly<Record<string, string>>;
}

const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are when you sign in',
  profile: 'See your name',
  email: 'See your email address and whether it is verified',
  offline_access: 'Stay signed in to it while you are away',
};

/** The consent screen a third-party application shows once (decision 0915). No JavaScript. */
export function renderConsentPage(model: ConsentPageModel): string {
  const content = html`<h1>Allow ${model.appName}?</h1>
    <p class="lead">${model.appName} asks to use your account <strong>${model.email}</strong>. It will be able to:</p>
    <ul>
      ${model.scopes.map((s) => html`<li>${SCOPE_TEXT[s] ?? s}</li>`)}
    </ul>
    <p class="meta">You can take this back at any time on your sessions page.</p>
    <form method="post" action="${model.action}">
      <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
      ${Object.entries(model.params).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
    </form>`;
  return pageLayout({ title: `Allow ${model.appName}`, brand: model.appName }, content);
}
