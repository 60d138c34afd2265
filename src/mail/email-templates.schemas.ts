import { allRequiredSchema, nullableTime, str } from '../api-docs/response-schema';

export const EmailTemplateSchema = allRequiredSchema('EmailTemplate', {
  type: 'object',
  properties: {
    name: {
      type: 'string',
      enum: ['registration_confirmation', 'password_reset', 'new_device_alert', 'sign_in_code', 'sign_in_blocked'],
      example: 'registration_confirmation',
    },
    display_name: str('Registration confirmation'),
    subject: str('Your {{app_name}} code'),
    from_name: str('Acme'),
    body: str('Hello {{first_name}}, your code is {{code}}.'),
    placeholders: { type: 'array', items: { type: 'string' }, example: ['first_name', 'code', 'app_name'] },
    is_default: { type: 'boolean', example: false, description: 'true: the built-in text (nothing saved for this workspace).' },
    updated_at: nullableTime,
  },
});
