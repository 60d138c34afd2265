import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper } from '../support/factories';
import { codeIn, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser } from './support';
import { withMailingApp } from '../support/mailing-app';

describe('mail without SMTP_URL: .eml files', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ SMTP_URL: '' })));
  afterAll(() => t.close());

  it('writes the verification mail as a .eml file under MAIL_DIR that holds a working code', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const [row] = (await waitForRow(t, user.email)) as { file_name: string }[];
    expect(row.file_name).toMatch(/registration_confirmation-.*\.eml$/);
    const files = await readdir(t.config.MAIL_DIR);
    expect(files).toContain(row.file_name);
    const parsed = await simpleParser(await readFile(join(t.config.MAIL_DIR, row.file_name)));
    expect((parsed.to as { text: string }).text).toBe(user.email);
    const code = /\b(\d{6})\b/.exec(parsed.subject ?? '')![1];
    await t.http().post('/e/v1/email/verify/').send({ email: user.email, code }).expect(200);
  });
});

function waitForRow(t: TestApp, email: string) {
  return eventually(async () => {
    const rows = (await t.dataSource.query(`SELECT file_name FROM mail_outbox WHERE to_address = $1 AND status = 'sent'`, [
      email,
    ])) as unknown[];
    if (!rows.length) throw new Error(`no mail to ${email} written yet`);
    return rows;
  });
}

describe('email templates API', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started));

  it('lists the defaults for a workspace that saved none', async () => {
    const { dev, ws } = await aTenant(t);
    const res = await t.http().get(`/developer/email-templates/?workspace_id=${ws.id}`).set(dev.auth).expect(200);
    const names = res.body.results.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['registration_confirmation', 'new_device_alert']));
    const reg = res.body.results.find((r: { name: string }) => r.name === 'registration_confirmation');
    expect(reg).toEqual(
      expect.objectContaining({
        display_name: 'Registration Confirmation',
        is_default: true,
        placeholders: expect.arrayContaining(['code', 'first_name', 'email']),
      }),
    );
  });

  it('uses a saved template for the next registration mail', async () => {
    const { dev, ws, client } = await aTenant(t);
    const saved = await t.http().put('/developer/email-templates/registration_confirmation/').set(dev.auth).send({
      workspace_id: ws.id,
      subject: 'Welcome {{first_name}}: code {{code}}',
      from_name: 'The Notes Team',
      body: 'Hello {{first_name}} <{{email}}>, your code is {{ code }}.',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual(expect.objectContaining({ name: 'registration_confirmation', is_default: false }));
    const user = await anEndUser(t, client, { firstName: 'Lin' });
    const mail = await smtp.waitFor(user.email);
    const code = codeIn(mail);
    expect(mail.subject).toBe(`Welcome Lin: code ${code}`);
    expect(mail.parsed.from?.value[0].name).toBe('The Notes Team');
    expect(mail.text.trim()).toBe(`Hello Lin <${user.email}>, your code is ${code}.`);
    expect(mail.html).toBeNull();
  });

  it('refuses an unknown placeholder with 400 and names it', async () => {
    const { dev, ws } = await aTenant(t);
    const res = await t
      .http()
      .put('/developer/email-templates/registration_confirmation/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, subject: 'Hi', from_name: 'x', body: '<p>{{password}}</p>' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.details.body).toEqual(['unknown placeholder {{password}}']);
  });

  it('accepts the new_device_alert placeholders', async () => {
    const { dev, ws } = await aTenant(t);
    const body =
      '<p>{{anomaly.message}} {{city}} {{country}} {{ip_address}} {{when}} <a href="{{sessions_url}}">x</a> {{oauth_client.name}}</p>';
    await t
      .http()
      .put('/developer/email-templates/new_device_alert/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, subject: 'New sign-in', from_name: '{{oauth_client.name}}', body })
      .expect(200);
  });

  it('answers 404 for an unknown template name and for a workspace the developer is not in', async () => {
    const { dev, ws } = await aTenant(t);
    const other = await aDeveloper(t);
    const payload = { workspace_id: ws.id, subject: 's', from_name: 'f', body: 'b' };
    await t.http().put('/developer/email-templates/nope/').set(dev.auth).send(payload).expect(404);
    await t.http().put('/developer/email-templates/registration_confirmation/').set(other.auth).send(payload).expect(404);
    await t.http().get(`/developer/email-templates/?workspace_id=${ws.id}`).set(other.auth).expect(404);
  });
});
