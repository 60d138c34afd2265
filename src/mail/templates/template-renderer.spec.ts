import fc from 'fast-check';
import { TEMPLATE_CATALOG, TEMPLATE_NAMES } from './template-catalog';
import { htmlToText, renderMessage, renderString, unknownPlaceholders } from './template-renderer';

describe('renderString', () => {
  it('fills plain and dotted placeholders, with or without spaces', () => {
    const out = renderString('Hi {{first_name}}, welcome to {{ oauth_client.name }}', {
      first_name: 'Ada',
      oauth_client: { name: 'Acme' },
    });
    expect(out).toBe('Hi Ada, welcome to Acme');
  });

  it('accepts flat dotted keys as well as nested objects', () => {
    expect(renderString('{{anomaly.message}}', { 'anomaly.message': 'New device' })).toBe('New device');
  });

  it('renders a missing value as empty text', () => {
    expect(renderString('[{{city}}]', {})).toBe('[]');
  });

  it('does not re-expand a value that looks like a placeholder', () => {
    expect(renderString('{{first_name}} {{code}}', { first_name: '{{code}}', code: '123456' })).toBe('{{code}} 123456');
  });

  it('never reads inherited properties', () => {
    expect(renderString('{{constructor.name}}{{constructor}}{{toString}}', {})).toBe('');
  });
});

describe('renderMessage', () => {
  const template = { subject: 'Hello {{first_name}}', body: '<p>Hi {{first_name}}</p><p>{{code}}</p>' };

  it('escapes values in HTML bodies', () => {
    const msg = renderMessage(template, { first_name: '<script>alert(1)</script>', code: '1' });
    expect(msg.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(msg.html).not.toContain('<script>');
  });

  it('gives a text alternative with the real characters', () => {
    const msg = renderMessage(template, { first_name: 'Zoë & <Co>', code: '042917' });
    expect(msg.text).toBe('Hi Zoë & <Co>\n\n042917');
  });

  it('keeps a plain-text body as text, unescaped, with no HTML part', () => {
    const msg = renderMessage({ subject: 's', body: 'Your code: {{code}} for {{email}}' }, { code: '1', email: 'a&b@x.io' });
    expect(msg.html).toBeNull();
    expect(msg.text).toBe('Your code: 1 for a&b@x.io');
  });

  it('never lets a value break the subject line', () => {
    const msg = renderMessage(template, { first_name: 'Eve\r\nBcc: victim@example.com' });
    expect(msg.subject).toBe('Hello Eve Bcc: victim@example.com');
    expect(msg.subject).not.toMatch(/[\r\n]/);
  });

  it('escapes any value so no tag survives (property)', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        const html = renderMessage({ subject: 's', body: '<p>{{first_name}}</p>' }, { first_name: name }).html!;
        const inner = html.slice(3, -4);
        expect(inner).not.toMatch(/[<>"']/);
      }),
    );
  });
});

describe('unknownPlaceholders', () => {
  const allowed = ['code', 'first_name', 'oauth_client.name'];

  it('accepts known names', () => {
    expect(unknownPlaceholders('{{code}} {{ first_name }} {{oauth_client.name}}', allowed)).toEqual([]);
  });

  it('reports unknown and malformed tags once each', () => {
    expect(unknownPlaceholders('{{password}} {{password}} {{ first name }} {{}}', allowed)).toEqual([
      '{{password}}',
      '{{ first name }}',
      '{{}}',
    ]);
  });

  it('accepts every default template against its own placeholder list', () => {
    for (const name of TEMPLATE_NAMES) {
      const { defaults, placeholders } = TEMPLATE_CATALOG[name];
      expect(unknownPlaceholders(defaults.subject + defaults.from_name + defaults.body, placeholders)).toEqual([]);
    }
  });
});

describe('default templates', () => {
  it('registration confirmation carries the code in subject, HTML and text', () => {
    const msg = renderMessage(TEMPLATE_CATALOG.registration_confirmation.defaults, {
      code: '004211',
      first_name: 'Ada',
      email: 'ada@example.com',
      oauth_client: { name: 'Acme' },
    });
    expect(msg.subject).toBe('004211 is your Acme verification code');
    expect(msg.html).toContain('004211');
    expect(msg.text).toContain('004211');
    expect(msg.text).toContain('Hi Ada,');
  });

  it('new device alert links to the sessions page', () => {
    const msg = renderMessage(TEMPLATE_CATALOG.new_device_alert.defaults, {
      'oauth_client.name': 'Acme',
      'anomaly.message': 'A new device signed in.',
      sessions_url: 'https://app.example.com/sessions?a=1&b=2',
    });
    expect(msg.html).toContain('href="https://app.example.com/sessions?a=1&amp;b=2"');
    expect(msg.text).toContain('Review your sessions (https://app.example.com/sessions?a=1&b=2)');
  });
});

describe('htmlToText', () => {
  it('drops head and style blocks', () => {
    expect(htmlToText('<head><title>x</title><style>p{}</style></head><p>Hello</p>')).toBe('Hello');
  });

  it('reads a table row as "label: value" on one line', () => {
    const html = '<table><tr><td style="x">When</td><td>today</td></tr>\n<tr><td>IP address</td><td>127.0.0.1</td></tr></table><p>Bye</p>';
    expect(htmlToText(html)).toBe('When: today\nIP address: 127.0.0.1\n\nBye');
  });
});
