import request from 'supertest';
import { aTenant, anEndUser } from '../../test/end-users/support';
import type { TestApp } from '../../test/support/app';
import type { SmtpReceiver } from '../../test/support/smtp-receiver';
import { aRegisteredSp, authorizePath, craftedRequest, RegisteredSp } from '../../test/saml/support/saml-sso.helpers';
import type { BenchRequest } from './types';

/** A signed-in browser of the service and the SP it signs in to (bench/ab.ts --scenario=sso, bench/saml-peers.ts). */
export interface SignedInBrowser {
  sp: RegisteredSp;
  /** The SP's registration as the API answered it (name_id_format, sign_assertions, ...). */
  user: { email: string; password: string; firstName: string };
  /** `esid=...`: the hosted login's session cookie. */
  cookie: string;
  /** GET /saml/sso/ with a new AuthnRequest of the SP each time (each is answered once). */
  requests: BenchRequest[];
}

/**
 * A registered SP and one browser signed in through the hosted login page, sending a new AuthnRequest of the SP each
 * time: the request-ID claim refuses a replay, so every request carries a fresh ID and IssueInstant.
 */
export async function signedInBrowser(baseUrl: string, smtp: SmtpReceiver): Promise<SignedInBrowser> {
  // The test factories only need an HTTP client aimed at the service.
  const t = { http: () => request(baseUrl), baseUrl } as unknown as TestApp;
  const tenant = await aTenant(t);
  const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
  const { path } = await authorizePath(sp, '/dashboard');
  const user = await anEndUser(t, tenant.client, { smtp, firstName: 'Ada' });
  const agent = request.agent(t.baseUrl);
  const start = await agent.get(path).expect(302);
  const form = await agent.get(start.headers.location as string).expect(200);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
  const login = await agent
    .post('/auth/login/')
    .type('form')
    .send({ csrf_token: csrf, workspace_id: tenant.ws.id, next: '/saml/sso/finish/', email: user.email, password: user.password })
    .expect(303);
  const setCookie = ([] as string[]).concat(login.headers['set-cookie'] ?? []).find((c) => c.startsWith('esid='));
  if (!setCookie) throw new Error('the hosted login set no esid cookie');
  const cookie = setCookie.split(';')[0];
  const fresh = () => `${craftedRequest(sp.entityId, { acsUrl: sp.acsUrl })}&RelayState=%2Fdashboard`;
  return {
    sp,
    user: { email: user.email, password: user.password, firstName: 'Ada' },
    cookie,
    requests: [{ path: fresh(), newPath: fresh, headers: { cookie } }],
  };
}
