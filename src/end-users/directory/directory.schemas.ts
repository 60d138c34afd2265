import { allRequiredSchema, id, OPAQUE_NEXT_CURSOR, pageSchema, str, time } from '../../api-docs/response-schema';

export const DirectoryUserSchema = allRequiredSchema('DirectoryUser', {
  type: 'object',
  properties: {
    id,
    email: str('ada@acme.test'),
    first_name: str('Ada'),
    last_name: str('Lovelace'),
    active: { type: 'boolean', example: true, description: 'false once deactivated (SCIM active=false or DELETE): sign-ins are refused.' },
    email_verified: { type: 'boolean', example: true },
    has_password: {
      type: 'boolean',
      example: false,
      description: 'Whether the person has set a password (directory users start without one).',
    },
    application: {
      type: 'object',
      nullable: true,
      required: ['id', 'name'],
      properties: { id, name: str('Acme Notes') },
      description:
        "The application whose account this is; null for the workspace's directory (provisioned by SCIM or added by a developer).",
    },
    created_at: time,
  },
});

export const DirectoryUserPageSchema = pageSchema('DirectoryUserPage', DirectoryUserSchema, OPAQUE_NEXT_CURSOR);

export const DirectorySessionSchema = allRequiredSchema('DirectorySession', {
  type: 'object',
  properties: {
    id,
    kind: { type: 'string', enum: ['api', 'browser'], example: 'browser' },
    ip_address: { type: 'string', nullable: true, example: '203.0.113.7' },
    country: { type: 'string', nullable: true, example: 'FR' },
    user_agent: { type: 'string', nullable: true, example: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' },
    browser_family: str('Firefox'),
    os_family: str('Linux'),
    amr: { type: 'array', items: { type: 'string' }, example: ['pwd'] },
    created_at: time,
    last_seen_at: time,
    expires_at: time,
  },
});
