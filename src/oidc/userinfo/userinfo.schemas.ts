import { namedSchema, str } from '../../api-docs/response-schema';

export const OidcUserInfoSchema = namedSchema('OidcUserInfo', {
  type: 'object',
  description: "OpenID Connect Core §5.3 claims, by the grant's scope.",
  required: ['sub'],
  properties: {
    sub: str('0f8fad5b-d9cb-469f-a165-70867728950e'),
    email: str('ada@example.com'),
    email_verified: { type: 'boolean', example: true },
    name: str('Ada Lovelace'),
    given_name: str('Ada'),
    family_name: str('Lovelace'),
  },
});
