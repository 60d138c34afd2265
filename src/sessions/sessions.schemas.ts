import { allRequiredSchema, id, str, time } from '../api-docs/response-schema';

export const EndUserSessionSchema = allRequiredSchema('EndUserSession', {
  type: 'object',
  properties: {
    id,
    ip_address: { type: 'string', nullable: true, example: '203.0.113.7' },
    country: { type: 'string', nullable: true, example: 'FR' },
    city: { type: 'string', nullable: true, example: 'Paris' },
    user_agent: { type: 'string', nullable: true, example: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Firefox/130.0' },
    browser_family: str('Firefox'),
    os_family: str('Mac OS'),
    kind: { type: 'string', enum: ['api', 'browser'], example: 'api' },
    amr: {
      type: 'array',
      items: { type: 'string' },
      example: ['pwd', 'otp', 'mfa'],
      description:
        'How the session was authenticated (RFC 8176): `pwd` password, `otp` one-time code, `hwk`/`swk` passkey, `mfa` two factors.',
    },
    created_at: time,
    last_seen_at: time,
    current: { type: 'boolean', example: true, description: 'The session of the token making this call.' },
  },
});
