/**
 * The templates a workspace can edit, their placeholders and their defaults.
 * A workspace that never saved a template gets the default; saving stores a full copy.
 */
export const TEMPLATE_NAMES = [
  'registration_confirmation',
  'new_device_alert',
  'password_reset',
  'sign_in_code',
  'sign_in_blocked',
] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export interface TemplateContent {
  subject: string;
  from_name: string;
  body: string;
}

export interface TemplateDefinition {
  name: TemplateName;
  display_name: string;
  placeholders: readonly string[];
  defaults: TemplateContent;
}

const FROM_NAME = '{{oauth_client.name}}';

/** A plain, widely supported email layout: one centred card, inline styles, no images. */
function layout(title: string, inner: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1f2933;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:32px 12px;">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px;">
<tr><td style="font-size:15px;line-height:1.6;">
${inner}
</td></tr>
</table>
<p style="font-size:12px;color:#7b8794;margin-top:16px;">Sent by {{oauth_client.name}}. You are receiving this because of activity on your account.</p>
</td></tr>
</table>
</body>
</html>
`;
}

const REGISTRATION_BODY = layout(
  'Confirm your email',
  `<h1 style="font-size:20px;margin:0 0 16px;">Confirm your email address</h1>
<p style="margin:0 0 16px;">Hi {{first_name}},</p>
<p style="margin:0 0 16px;">Thanks for signing up for {{oauth_client.name}}. Enter this code to confirm that {{email}} is your address:</p>
<p style="font-size:32px;font-weight:700;letter-spacing:8px;margin:24px 0;font-family:'SFMono-Regular',Consolas,monospace;">{{code}}</p>
<p style="margin:0 0 16px;">The code expires in 1 hour. If you did not create an account, you can ignore this email.</p>`,
);

const NEW_DEVICE_BODY = layout(
  'New sign-in to your account',
  `<h1 style="font-size:20px;margin:0 0 16px;">New sign-in to your {{oauth_client.name}} account</h1>
<p style="margin:0 0 16px;">Hi {{first_name}},</p>
<p style="margin:0 0 16px;">{{anomaly.message}}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:14px;">
<tr><td style="color:#7b8794;padding:2px 16px 2px 0;">When</td><td>{{when}}</td></tr>
<tr><td style="color:#7b8794;padding:2px 16px 2px 0;">Where</td><td>{{location}}</td></tr>
<tr><td style="color:#7b8794;padding:2px 16px 2px 0;">IP address</td><td>{{ip_address}}</td></tr>
<tr><td style="color:#7b8794;padding:2px 16px 2px 0;">Device</td><td>{{user_agent}}</td></tr>
</table>
<p style="margin:0 0 16px;">If this was you, there is nothing to do. If not, sign out that session and change your password:</p>
<p style="margin:0 0 16px;"><a href="{{sessions_url}}" style="display:inline-block;background:#3b5bdb;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:8px;">Review your sessions</a></p>`,
);

const PASSWORD_RESET_BODY = layout(
  'Reset your password',
  `<h1 style="font-size:20px;margin:0 0 16px;">Reset your password</h1>
<p style="margin:0 0 16px;">Hi {{first_name}},</p>
<p style="margin:0 0 16px;">Someone asked to reset the password of the {{oauth_client.name}} account for {{email}}. Use this code to choose a new password:</p>
<p style="font-size:32px;font-weight:700;letter-spacing:8px;margin:24px 0;font-family:'SFMono-Regular',Consolas,monospace;">{{code}}</p>
<p style="margin:0 0 16px;">The code expires in 1 hour. If you did not ask for this, ignore this email: your password stays as it is.</p>`,
);

const SIGN_IN_CODE_BODY = layout(
  'Confirm your sign-in',
  `<h1 style="font-size:20px;margin:0 0 16px;">Confirm it is you</h1>
<p style="margin:0 0 16px;">Hi {{first_name}},</p>
<p style="margin:0 0 16px;">Someone signed in to the {{oauth_client.name}} account for {{email}} with the right password from a device or place we have not seen. Enter this code to finish signing in:</p>
<p style="font-size:32px;font-weight:700;letter-spacing:8px;margin:24px 0;font-family:'SFMono-Regular',Consolas,monospace;">{{code}}</p>
<p style="margin:0 0 16px;">The code expires in 1 hour. If this was not you, change your password now: whoever tried knows it.</p>`,
);

const SIGN_IN_BLOCKED_BODY = layout(
  'Sign-in blocked',
  `<h1 style="font-size:20px;margin:0 0 16px;">We blocked a sign-in to your account</h1>
<p style="margin:0 0 16px;">Hi {{first_name}},</p>
<p style="margin:0 0 16px;">Someone used the right password for the {{oauth_client.name}} account of {{email}} from {{device}} (IP {{ip_address}}), which this account has not used before. The sign-in policy of {{oauth_client.name}} refused it and signed the account out everywhere.</p>
<p style="margin:0 0 16px;">If this was not you, change your password now: whoever tried knows it. If it was you, sign in from a device you used before or ask the administrators of {{oauth_client.name}}.</p>`,
);

export const TEMPLATE_CATALOG: Record<TemplateName, TemplateDefinition> = {
  registration_confirmation: {
    name: 'registration_confirmation',
    display_name: 'Registration Confirmation',
    placeholders: ['code', 'first_name', 'last_name', 'email', 'oauth_client.name'],
    defaults: {
      subject: '{{code}} is your {{oauth_client.name}} verification code',
      from_name: FROM_NAME,
      body: REGISTRATION_BODY,
    },
  },
  new_device_alert: {
    name: 'new_device_alert',
    display_name: 'New Device Alert',
    placeholders: [
      'oauth_client.name',
      'anomaly.message',
      'anomaly.kind',
      'anomaly.kinds',
      'city',
      'country',
      'ip_address',
      'user_agent',
      'when',
      'sessions_url',
      'first_name',
      'email',
      'location',
    ],
    defaults: {
      subject: 'New sign-in to your {{oauth_client.name}} account',
      from_name: FROM_NAME,
      body: NEW_DEVICE_BODY,
    },
  },
  password_reset: {
    name: 'password_reset',
    display_name: 'Password Reset',
    placeholders: ['code', 'first_name', 'last_name', 'email', 'oauth_client.name'],
    defaults: {
      subject: 'Reset your {{oauth_client.name}} password',
      from_name: FROM_NAME,
      body: PASSWORD_RESET_BODY,
    },
  },
  sign_in_code: {
    name: 'sign_in_code',
    display_name: 'Sign-in Code',
    placeholders: ['code', 'first_name', 'last_name', 'email', 'oauth_client.name'],
    defaults: { subject: '{{code}} is your {{oauth_client.name}} sign-in code', from_name: FROM_NAME, body: SIGN_IN_CODE_BODY },
  },
  sign_in_blocked: {
    name: 'sign_in_blocked',
    display_name: 'Sign-in Blocked',
    placeholders: ['first_name', 'last_name', 'email', 'oauth_client.name', 'device', 'ip_address'],
    defaults: { subject: 'We blocked a sign-in to your {{oauth_client.name}} account', from_name: FROM_NAME, body: SIGN_IN_BLOCKED_BODY },
  },
};

export function isTemplateName(name: string): name is TemplateName {
  return (TEMPLATE_NAMES as readonly string[]).includes(name);
}
