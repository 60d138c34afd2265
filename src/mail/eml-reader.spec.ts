import { createTransport } from 'nodemailer';
import { codesIn, linksIn, readEml } from './eml-reader';

/** A message as the service writes it without SMTP (the same nodemailer stream transport as mail.module.ts). */
async function written(mail: { subject: string; text?: string; html?: string }): Promise<string> {
  const transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = (await transport.sendMail({ to: 'zoë@acme.test', from: { name: 'Acme Café', address: 'no-reply@acme.test' }, ...mail })) as {
    message: Buffer;
  };
  return info.message.toString();
}

describe('readEml', () => {
  it('reads back subject, recipient and text of a multipart message with non-ASCII text and long lines', async () => {
    const text = `Hello Zoë,\n\nYour code is 123456.\nOpen http://localhost:3000/auth/login/reset/?a=1&b=2 to continue. ${'x'.repeat(90)}`;
    const raw = await written({ subject: 'Your code 654321 — Acme Café', text, html: '<p>Hello</p>' });
    expect(raw).toContain('quoted-printable');
    expect(readEml(raw)).toEqual({ subject: 'Your code 654321 — Acme Café', to: 'zoë@acme.test', text });
  });

  it('reads a text-only message and a base64 one', async () => {
    expect(readEml(await written({ subject: 'Plain', text: 'Only text 111222' })).text).toBe('Only text 111222');
    const greek = 'Καλημέρα '.repeat(20);
    const raw = await written({ subject: 'Γειά', text: greek });
    expect(readEml(raw)).toMatchObject({ subject: 'Γειά', text: greek });
  });

  it('answers no text for an HTML-only message and for garbage', async () => {
    expect(readEml(await written({ subject: 'Only HTML', html: '<p>hi</p>' })).text).toBeNull();
    expect(readEml('not a mail at all')).toEqual({ subject: '', to: '', text: null });
  });
});

describe('codesIn and linksIn', () => {
  it('finds six-digit codes once each, not longer numbers, and links without trailing punctuation', () => {
    expect(codesIn('Your code 123456', 'Code: 123456, or 654321; not 1234567')).toEqual(['123456', '654321']);
    expect(codesIn('Your code is 246810.', 'Sent to files-4b746621-416@example.test, ab123456@x.test, 123456-7@x.test')).toEqual([
      '246810',
    ]);
    expect(linksIn('Open https://id.example/auth/login/?x=1. Or (http://localhost:3000/a).')).toEqual([
      'https://id.example/auth/login/?x=1',
      'http://localhost:3000/a',
    ]);
  });
});
