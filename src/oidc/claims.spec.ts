import { subjectFor, userClaims } from './id-tokens.service';
import type { AppClient, ClaimsUser } from './oidc.repository';

const app = (overrides: Partial<AppClient> = {}): AppClient => ({
  id: 'a',
  clientId: 'cli_a',
  workspaceId: 'w',
  name: 'A',
  secretHash: 'h',
  redirectUris: [],
  requirePkce: true,
  postLogoutRedirectUris: [],
  clientType: 'confidential',
  firstParty: true,
  subjectType: 'public',
  pairwiseSalt: 'salt-a',
  idTokenAlg: 'RS256',
  jwks: null,
  ...overrides,
});
const user: ClaimsUser = {
  id: 'u-1',
  email: 'ada@example.test',
  emailVerified: true,
  firstName: 'Ada',
  lastName: 'Lovelace',
  isActive: true,
};

describe('claims by scope', () => {
  it('releases only sub for openid, and the email and profile claims when asked', () => {
    expect(userClaims(app(), user, 'openid')).toEqual({ sub: 'u-1' });
    expect(userClaims(app(), user, 'openid email profile')).toEqual({
      sub: 'u-1',
      email: 'ada@example.test',
      email_verified: true,
      name: 'Ada Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
  });

  it('gives each pairwise client its own stable subject, never the user id', () => {
    const a = subjectFor(app({ subjectType: 'pairwise' }), user.id);
    expect(a).not.toBe(user.id);
    expect(subjectFor(app({ subjectType: 'pairwise' }), user.id)).toBe(a);
    expect(subjectFor(app({ subjectType: 'pairwise', pairwiseSalt: 'salt-b' }), user.id)).not.toBe(a);
  });
});
