/** The scopes an application may ask for (OpenID Connect Core §5.4, §11). */
export const OPENID = 'openid';
export const OFFLINE_ACCESS = 'offline_access';
export const APPLICATION_SCOPES = [OPENID, 'profile', 'email', OFFLINE_ACCESS] as const;

export const AUTHORIZATION_CODE = 'authorization_code';
export const REFRESH_TOKEN = 'refresh_token';

/** The Authentication Context Class References this provider satisfies (decision 0313). */
export { ACR_MFA, ACR_SFA, acrFor } from '../sessions/tokens/access-token.codec';

export const hasScope = (scope: string, name: string): boolean => scope.split(' ').includes(name);
