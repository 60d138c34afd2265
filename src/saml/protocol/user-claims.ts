import { SamlAttribute } from './login-response.builder';

/** User field paths an SP may map claims and the NameID to (spec: SAML SP registration). */
export const USER_FIELD_PATHS = ['email', 'first_name', 'last_name', 'display_name', 'id'] as const;
export type UserFieldPath = (typeof USER_FIELD_PATHS)[number];

export function isUserFieldPath(value: unknown): value is UserFieldPath {
  return typeof value === 'string' && (USER_FIELD_PATHS as readonly string[]).includes(value);
}

/** The facts about an end user that may appear in an assertion. */
export interface AssertableUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
}

/** display_name is the first and last name joined by a space (spec), skipping a missing half. */
export function userField(user: AssertableUser, path: UserFieldPath): string {
  switch (path) {
    case 'email':
      return user.email;
    case 'first_name':
      return user.firstName ?? '';
    case 'last_name':
      return user.lastName ?? '';
    case 'display_name':
      return [user.firstName, user.lastName].filter((p) => p && p.trim()).join(' ');
    case 'id':
      return user.id;
  }
}

/** Claims in mapping order; a claim whose field is empty is left out rather than sent blank. */
export function mapAttributes(user: AssertableUser, mapping: Record<string, string>): SamlAttribute[] {
  const out: SamlAttribute[] = [];
  for (const [name, path] of Object.entries(mapping)) {
    if (!isUserFieldPath(path)) continue;
    const value = userField(user, path);
    if (value !== '') out.push({ name, value });
  }
  return out;
}
