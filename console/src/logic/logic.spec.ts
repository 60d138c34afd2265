import { auditQuery, describeVerification, EMPTY_FILTERS } from './audit';
import { eventSubject } from './events';
import { formatBytes, lines, sparkline } from './format';
import { mappingFromRows, rowsFromMapping } from './mapping';
import { certificateFromMetadata } from './pem';
import { automaticRetryDelayMs, fieldMessages, networkProblem, retryAfterSeconds, toProblem } from './problem';
import { connectionPath, matchRoute, safeNext, signInPath } from './routes';
import { domainState, idpSetup, reasonInWords, testSignInUrl, wordList } from './sso';
import { deliveryName, eventName, setCounts } from './ssf';
import { escapeHtml, fillPlaceholders, isHtmlBody, unknownPlaceholders } from './template';

const WS = '0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90';

describe('console routes', () => {
  it('maps console paths to pages, defaulting a workspace to its SCIM page', () => {
    expect(matchRoute('/console/')).toEqual({ page: 'workspaces' });
    expect(matchRoute('/console/tokens')).toEqual({ page: 'tokens' });
    expect(matchRoute(`/console/w/${WS}`)).toEqual({ page: 'workspace', workspaceId: WS, section: 'scim' });
    expect(matchRoute(`/console/w/${WS}/audit`)).toEqual({ page: 'workspace', workspaceId: WS, section: 'audit' });
    expect(matchRoute(`/console/w/${WS}/nope`)).toEqual({ page: 'not-found' });
    expect(matchRoute('/console/w/not-a-uuid/audit')).toEqual({ page: 'not-found' });
  });

  it('gives one SSO connection its own page, and nothing else a fourth path segment', () => {
    const id = '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11';
    expect(connectionPath(WS, id)).toBe(`/console/w/${WS}/sso/${id}`);
    expect(matchRoute(connectionPath(WS, id))).toEqual({ page: 'workspace', workspaceId: WS, section: 'sso', itemId: id });
    expect(matchRoute(`/console/w/${WS}/sso`)).toEqual({ page: 'workspace', workspaceId: WS, section: 'sso' });
    expect(matchRoute(`/console/w/${WS}/saml/${id}`)).toEqual({ page: 'not-found' });
    expect(matchRoute(`/console/w/${WS}/sso/not-an-id`)).toEqual({ page: 'not-found' });
  });

  it('follows ?next= only to a page of the console, never to another site', () => {
    expect(matchRoute('/console/signin', `?next=${encodeURIComponent(`/console/w/${WS}/saml`)}&expired=1`)).toEqual({
      page: 'signin',
      next: `/console/w/${WS}/saml`,
      expired: true,
    });
    for (const evil of [
      'https://evil.example/console/',
      '//evil.example/console/',
      '/console\\..\\evil',
      '/other/',
      'javascript:alert(1)',
    ]) {
      expect(safeNext(evil)).toBeUndefined();
    }
    expect(safeNext('/console/../admin')).toBeUndefined();
  });

  it('sends an expired session to sign-in with the page to come back to, but not back to sign-in itself', () => {
    expect(signInPath(`/console/w/${WS}/audit`, true)).toBe(
      `/console/signin?next=${encodeURIComponent(`/console/w/${WS}/audit`)}&expired=1`,
    );
    expect(signInPath('/console/signin?next=/console/tokens', false)).toBe('/console/signin');
  });
});

describe('API problems', () => {
  it('keeps the server message and the per-field messages of a validation error', () => {
    const problem = toProblem(400, {
      error: 'validation_failed',
      message: 'Invalid request: check body',
      details: { body: ['unknown placeholder {{nope}}'], 'attribute_mapping.email': ['bad path'] },
    });
    expect(problem.message).toBe('Invalid request: check body');
    expect(fieldMessages(problem, 'body')).toEqual(['unknown placeholder {{nope}}']);
    expect(fieldMessages(problem, 'attribute_mapping')).toEqual(['bad path']);
    expect(fieldMessages(problem, 'subject')).toEqual([]);
  });

  it('retries a load on its own only after a transient failure, after the pause the service asked for (decision 0940)', () => {
    const unavailable = { ...toProblem(503, { error: 'service_unavailable', message: 'retry shortly' }), retryAfterSeconds: 5 };
    expect(automaticRetryDelayMs(unavailable)).toBe(5000);
    expect(automaticRetryDelayMs(toProblem(502, undefined))).toBe(1000);
    expect(automaticRetryDelayMs(toProblem(429, undefined))).toBe(1000);
    expect(automaticRetryDelayMs(networkProblem())).toBe(1000);
    // A longer pause is the person's call (the error shows with Try again); a refusal or a bug is not retried.
    expect(automaticRetryDelayMs({ ...unavailable, retryAfterSeconds: 60 })).toBeNull();
    for (const status of [400, 401, 403, 404, 409, 500]) expect(automaticRetryDelayMs(toProblem(status, undefined))).toBeNull();
  });

  it('reads Retry-After in seconds and ignores what it cannot read', () => {
    expect(retryAfterSeconds('5')).toBe(5);
    expect(retryAfterSeconds(' 0 ')).toBe(0);
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds('Wed, 21 Oct 2026 07:28:00 GMT')).toBeUndefined();
    expect(retryAfterSeconds('-1')).toBeUndefined();
  });

  it('says something useful for bodies without a message (SCIM detail, HTML, nothing)', () => {
    expect(toProblem(401, { detail: 'Invalid token' }).message).toBe('Invalid token');
    expect(toProblem(502, '<html>Bad gateway</html>').message).toMatch(/service failed \(HTTP 502\)/);
    expect(toProblem(429, undefined).message).toMatch(/Too many requests/);
  });
});

describe('email template preview', () => {
  it('fills known placeholders (dotted too), leaves unknown ones visible, and escapes values in HTML', () => {
    expect(fillPlaceholders('{{code}} for {{ oauth_client.name }} {{nope}}')).toBe('428193 for Acme {{nope}}');
    expect(fillPlaceholders('<b>{{first_name}}</b>', { first_name: '<i>x</i>' }, escapeHtml)).toBe('<b>&lt;i&gt;x&lt;/i&gt;</b>');
    expect(unknownPlaceholders('{{code}} {{nope}} {{code}}', ['code'])).toEqual(['nope']);
  });

  it('tells an HTML body from plain text as the mailer does', () => {
    expect(isHtmlBody('<p>Hello</p>')).toBe(true);
    expect(isHtmlBody('Hello {{first_name}}, 2 < 3')).toBe(false);
  });
});

describe('audit filters and verification', () => {
  it('leaves empty filters out and sends times as UTC ISO 8601', () => {
    const query = auditQuery({ ...EMPTY_FILTERS, event_type: ' scim_user_create ', from: '2026-11-24T12:00', severity: '' });
    expect(Object.keys(query).sort()).toEqual(['event_type', 'from']);
    expect(query.event_type).toBe('scim_user_create');
    expect(query.from).toBe(new Date('2026-11-24T12:00').toISOString());
  });

  it('describes an intact chain and the first break with its reason', () => {
    expect(describeVerification({ verified: 1, checkpoints: 0, first_break: null })).toEqual({
      ok: true,
      text: 'Chain intact: 1 event verified, 0 checkpoints.',
    });
    const broken = describeVerification({ verified: 56, checkpoints: 2, first_break: { event_id: 'e1', seq: 57, reason: 'edited_event' } });
    expect(broken.ok).toBe(false);
    expect(broken.text).toBe(
      'Chain broken at event e1 (position 57): an event was changed after it was written. Before it: 56 events verified, 2 checkpoints.',
    );
  });
});

describe('SAML helpers', () => {
  it('extracts the signing certificate of IdP metadata as PEM with 64-character lines', () => {
    const base64 = 'A'.repeat(100);
    const pem = certificateFromMetadata(
      `<md:EntityDescriptor><ds:X509Certificate>\n ${base64} \n</ds:X509Certificate></md:EntityDescriptor>`,
    );
    expect(pem).toBe(`-----BEGIN CERTIFICATE-----\n${'A'.repeat(64)}\n${'A'.repeat(36)}\n-----END CERTIFICATE-----\n`);
    expect(certificateFromMetadata('<md:EntityDescriptor/>')).toBeUndefined();
    expect(certificateFromMetadata('<X509Certificate>not base64!</X509Certificate>')).toBeUndefined();
  });

  it('edits the attribute mapping as rows and refuses empty or repeated names', () => {
    const rows = rowsFromMapping({ email: 'email', firstName: 'first_name', odd: 'password' });
    expect(rows).toEqual([
      { claim: 'email', field: 'email' },
      { claim: 'firstName', field: 'first_name' },
      { claim: 'odd', field: 'email' },
    ]);
    expect(mappingFromRows(rows.slice(0, 2))).toEqual({ mapping: { email: 'email', firstName: 'first_name' } });
    expect(mappingFromRows([{ claim: ' ', field: 'id' }])).toEqual({ error: 'Every attribute needs a name.' });
    expect(mappingFromRows([...rows.slice(0, 1), { claim: 'email ', field: 'id' }])).toEqual({
      error: 'The attribute email is listed twice.',
    });
  });
});

describe('formatting', () => {
  it('formats sizes, splits redirect URI lines and scales a sparkline', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(8 * 1024 * 1024)).toBe('8.0 MiB');
    expect(formatBytes(null)).toBe('—');
    expect(lines(' https://a.example/cb \n\n https://b.example/cb\n')).toEqual(['https://a.example/cb', 'https://b.example/cb']);
    expect(sparkline([0, 5, 10], 100, 50)).toBe('0,50 50,25 100,0');
    expect(sparkline([], 100, 50)).toBe('');
  });
});

describe('SSO connection page logic', () => {
  const base = {
    id: 'c1',
    workspace_id: WS,
    name: 'Acme',
    domains: [],
    domain_verifications: [],
    jit: false,
    trust_upstream_mfa: false,
    sign_in_url: 'https://id.example.com/auth/sso/c1/',
    created_at: '2026-12-07T10:00:00.000Z',
    updated_at: '2026-12-07T10:00:00.000Z',
  };
  const saml = {
    ...base,
    protocol: 'saml' as const,
    sp_entity_id: 'https://id.example.com/auth/sso/c1/saml/metadata',
    acs_url: 'https://id.example.com/auth/sso/c1/saml/acs',
    sp_metadata_url: 'https://id.example.com/auth/sso/c1/saml/metadata',
  };
  const oidc = { ...base, protocol: 'oidc' as const, redirect_uri: 'https://id.example.com/auth/sso/c1/callback' };

  it('names our SAML values with the field names of Okta, Entra ID and Google Workspace', () => {
    expect(idpSetup(saml, 'okta').values).toEqual(
      expect.arrayContaining([
        { field: 'Single sign-on URL', value: saml.acs_url },
        { field: 'Audience URI (SP Entity ID)', value: saml.sp_entity_id },
      ]),
    );
    expect(idpSetup(saml, 'entra').values).toEqual(
      expect.arrayContaining([
        { field: 'Identifier (Entity ID)', value: saml.sp_entity_id },
        { field: 'Reply URL (Assertion Consumer Service URL)', value: saml.acs_url },
      ]),
    );
    expect(idpSetup(saml, 'google').values).toEqual(
      expect.arrayContaining([
        { field: 'ACS URL', value: saml.acs_url },
        { field: 'Entity ID', value: saml.sp_entity_id },
      ]),
    );
  });

  it('gives an OIDC connection its redirect URI under the name each provider gives it', () => {
    expect(idpSetup(oidc, 'okta').values[0]).toEqual({ field: 'Sign-in redirect URIs', value: oidc.redirect_uri });
    expect(idpSetup(oidc, 'entra').values[0]).toEqual({ field: 'Redirect URI (Web)', value: oidc.redirect_uri });
    expect(idpSetup(oidc, 'google').values[0]).toEqual({ field: 'Authorized redirect URIs', value: oidc.redirect_uri });
  });

  it('starts a test sign-in that ends on the hosted login of the workspace', () => {
    const url = new URL(testSignInUrl(oidc));
    expect(url.pathname).toBe('/auth/sso/c1/');
    expect(url.searchParams.get('next')).toBe(`/auth/login/?workspace_id=${WS}`);
  });

  it('reads domains and scopes typed with commas or spaces, and domain states with or without a status field', () => {
    expect(wordList(' Acme.com, acme.co.uk  acme.com\n', true)).toEqual(['acme.com', 'acme.co.uk']);
    expect(wordList('email profile,groups')).toEqual(['email', 'profile', 'groups']);
    expect(domainState({ verified: true })).toBe('verified');
    expect(domainState({ verified: false })).toBe('pending');
    expect(domainState({ verified: false, status: 'verified' })).toBe('verified');
  });

  it('says each refusal reason in words, and falls back to the code for one it does not know', () => {
    expect(reasonInWords('state_mismatch')).toMatch(/No sign-in of this browser/);
    expect(reasonInWords('something_new')).toBe('something_new');
    expect(reasonInWords(undefined)).toBe('—');
  });
});

describe('directory events in words', () => {
  it('names the user, the group, or the user in the group of a membership', () => {
    expect(eventSubject({ type: 'directory.user.created', data: { id: 'u1', userName: 'ada@example.com' } })).toBe('ada@example.com');
    expect(eventSubject({ type: 'directory.group.updated', data: { id: 'g1', displayName: 'Engineering' } })).toBe('Engineering');
    expect(
      eventSubject({
        type: 'directory.group.user_added',
        data: { group: { id: 'g1', displayName: 'Engineering' }, user: { id: 'u1', userName: 'ada@example.com' } },
      }),
    ).toBe('ada@example.com in Engineering');
    expect(eventSubject({ type: 'directory.user.updated', data: {} })).toBe('—');
  });
});

describe('shared signals in words', () => {
  it('names delivery methods, event types and SET counts as people read them', () => {
    expect(deliveryName('urn:ietf:rfc:8935')).toBe('Push');
    expect(deliveryName('urn:ietf:rfc:8936')).toBe('Poll');
    expect(deliveryName('urn:example:other')).toBe('urn:example:other');
    expect(eventName('https://schemas.openid.net/secevent/risc/event-type/account-disabled')).toBe('account-disabled');
    expect(eventName('https://example.com/')).toBe('https://example.com/');
    expect(setCounts({})).toBe('none yet');
    expect(setCounts({ failed: 1, delivered: 3, pending: 0 })).toBe('3 delivered, 1 failed');
  });
});
