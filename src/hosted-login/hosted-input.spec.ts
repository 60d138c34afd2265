import { contextQuery, hostedBasePath, hostedInput } from './hosted-input';

describe('hosted login helpers', () => {
  it('reads form or query fields defensively', () => {
    const input = hostedInput({ next: 'https://evil.example/', client_id: ['a', 'b'], workspace_id: 'w', email: 'a@b.co', password: 1 });
    expect(input).toEqual({
      next: '/',
      context: { clientId: null, workspaceId: 'w' },
      email: 'a@b.co',
      password: undefined,
      code: undefined,
    });
  });

  it('normalises SAML_IDP_LOGIN_URL to a path with a trailing slash', () => {
    expect(hostedBasePath('/auth/login/')).toBe('/auth/login/');
    expect(hostedBasePath('/sso/sign-in')).toBe('/sso/sign-in/');
    expect(hostedBasePath('https://elsewhere.example/login')).toBe('/auth/login/');
  });

  it('rebuilds the query that reopens the form', () => {
    expect(contextQuery({ next: '/x?y=1', context: { clientId: 'c 1' } })).toBe('next=%2Fx%3Fy%3D1&client_id=c+1');
  });
});
