import { allRequiredSchema, id, namedSchema, nullableTime, ref, str, time } from '../api-docs/response-schema';

export const MfaStatusSchema = allRequiredSchema('MfaStatus', {
  type: 'object',
  properties: {
    totp: { type: 'boolean', example: true, description: 'An authenticator app is set up (confirmed).' },
    passkeys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'created_at', 'last_used_at'],
        properties: { id, name: str('YubiKey 5C'), created_at: time, last_used_at: nullableTime },
      },
    },
    recovery_codes_left: { type: 'integer', example: 9, description: 'Unused recovery codes.' },
  },
});

export const TotpEnrolmentSchema = allRequiredSchema('TotpEnrolment', {
  type: 'object',
  properties: {
    secret: str('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', { description: 'Base32 secret, for typing into an app by hand' }),
    otpauth_uri: str(
      'otpauth://totp/Acme%20Notes:ada%40example.com?issuer=Acme%20Notes&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
      {
        description: 'Key URI for a QR code',
      },
    ),
  },
});

export const RecoveryCodesSchema = allRequiredSchema('RecoveryCodes', {
  type: 'object',
  properties: {
    recovery_codes: {
      type: 'array',
      nullable: true,
      items: { type: 'string' },
      example: [
        'K7QH2-M9XTR',
        'B4WPN-2ZKQC',
        'H8RT3-VXN6M',
        'Q2MZ7-KJ4PW',
        'T9XBC-3RHN8',
        'W6KDP-Q7M2Z',
        'Z3NVR-8BXK4',
        'C5HTM-W2QJ9',
        'P7ZKX-N4BR3',
        'R2QWM-6TCH8',
      ],
      description: 'Ten single-use codes, shown this once; null when this was not the first factor.',
    },
  },
});

export const SignInPolicySchema = allRequiredSchema('SignInPolicy', {
  type: 'object',
  properties: {
    workspace_id: id,
    new_device: { type: 'string', enum: ['allow', 'challenge', 'block'], example: 'challenge' },
    new_ip: { type: 'string', enum: ['allow', 'challenge', 'block'], example: 'allow' },
    new_country: { type: 'string', enum: ['allow', 'challenge', 'block'], example: 'challenge' },
    impossible_travel: { type: 'string', enum: ['allow', 'challenge', 'block'], example: 'block' },
    updated_at: { ...nullableTime, description: 'Null while the workspace never set a policy (all allow).' },
  },
});

export const PasskeySchema = allRequiredSchema('Passkey', {
  type: 'object',
  properties: { id, name: str('MacBook Touch ID'), created_at: time, last_used_at: nullableTime },
});

export const PasskeyRegisteredSchema = allRequiredSchema('PasskeyRegistered', {
  type: 'object',
  properties: {
    passkey: ref(PasskeySchema),
    recovery_codes: {
      type: 'array',
      nullable: true,
      items: { type: 'string' },
      example: null,
      description: 'Ten single-use codes when this passkey is the first factor of the account (shown this once), else null.',
    },
  },
});

export const PasskeyCreationOptionsSchema = namedSchema('PasskeyCreationOptions', {
  type: 'object',
  description:
    'WebAuthn PublicKeyCredentialCreationOptionsJSON: pass it to `startRegistration({optionsJSON})` of @simplewebauthn/browser (or `PublicKeyCredential.parseCreationOptionsFromJSON`). The challenge works once, for 5 minutes.',
  required: ['rp', 'user', 'challenge', 'pubKeyCredParams'],
  additionalProperties: true,
  properties: {
    rp: { type: 'object', example: { name: 'Acme Notes', id: 'id.example.com' } },
    user: { type: 'object', example: { id: 'q1Ai7Vd8Qk2l9Jm0Xb3Ykw', name: 'ada@example.com', displayName: 'ada@example.com' } },
    challenge: str('Xc3mQ0Lr7VYq9h2ZbT4nUw8Jk1sPdFg6'),
    pubKeyCredParams: {
      type: 'array',
      items: { type: 'object' },
      example: [
        { alg: -8, type: 'public-key' },
        { alg: -7, type: 'public-key' },
      ],
    },
    timeout: { type: 'integer', example: 300000 },
    excludeCredentials: { type: 'array', items: { type: 'object' }, example: [] },
    authenticatorSelection: {
      type: 'object',
      example: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
    },
    attestation: str('none'),
  },
});

export const PasskeyRequestOptionsSchema = namedSchema('PasskeyRequestOptions', {
  type: 'object',
  description:
    'WebAuthn PublicKeyCredentialRequestOptionsJSON: pass it to `startAuthentication({optionsJSON})` of @simplewebauthn/browser. The challenge works once, for 5 minutes.',
  required: ['challenge', 'rpId'],
  additionalProperties: true,
  properties: {
    challenge: str('Lr7VYq9h2ZbT4nUw8Jk1sPdFg6Xc3mQ0'),
    rpId: str('id.example.com'),
    timeout: { type: 'integer', example: 300000 },
    userVerification: str('preferred'),
    allowCredentials: {
      type: 'array',
      items: { type: 'object' },
      example: [{ id: 'AVx9dK1m3Qw7Lr2ZbT4nUw', type: 'public-key', transports: ['internal'] }],
    },
  },
});

export const MfaRequiredSchema = allRequiredSchema('MfaRequired', {
  type: 'object',
  properties: {
    mfa_required: { type: 'boolean', enum: [true], example: true },
    mfa_token: str('mfa_Vb2xQ9kT4mZ7pL1cR8nW5hY3jF6gD0sAe2Uo7IiKx', { description: 'Single use, 5 minutes, void after 5 wrong codes' }),
    methods: {
      type: 'array',
      items: { type: 'string', enum: ['totp', 'passkey', 'recovery_code', 'email_code'] },
      example: ['totp', 'recovery_code'],
    },
  },
});
