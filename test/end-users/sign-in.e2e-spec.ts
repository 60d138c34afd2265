import { EventEmitter2 } from '@nestjs/event-emitter';
import type { DomainEvents } from '../../src/events/domain-events';
import { TestApp } from '../support/app';
import { SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, bearer, logIn } from './support';
import { withMailingApp } from '../support/mailing-app';

describe('end-user registration and sign-in', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started));

  it('registers a user, lowercases the email and answers 201 with email_verified false', async () => {
    const { client } = await aTenant(t);
    const res = await t
      .http()
      .post('/e/v1/auth/register/')
      .send({ client_id: client.client_id, email: 'Grace.Hopper@Example.TEST', password: 'correct horse battery', first_name: 'Grace' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      email: 'grace.hopper@example.test',
      email_verified: false,
      first_name: 'Grace',
      last_name: '',
      created_at: expect.any(String),
    });
    expect(res.body).not.toHaveProperty('password_hash');
  });

  it('answers 409 email_taken for the same email on the same client, in any case', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const res = await t
      .http()
      .post('/e/v1/auth/register/')
      .send({ client_id: client.client_id, email: user.email.toUpperCase(), password: 'another password' });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('email_taken');
  });

  it('signs in and returns a bearer token pair that opens the sessions list', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const tokens = await logIn(t, user, {
      'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    });
    expect(tokens).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^rt_/),
      token_type: 'Bearer',
      expires_in: 900,
      session_id: expect.any(String),
    });
    const list = await t.http().get('/user/security/sessions/').set(bearer(tokens.access_token)).expect(200);
    expect(list.body.results).toEqual([
      expect.objectContaining({
        id: tokens.session_id,
        ip_address: '127.0.0.1',
        current: true,
        browser_family: 'Chrome',
        os_family: 'Linux',
        country: null,
        city: null,
      }),
    ]);
  });

  it('announces login_success after the session is committed, carrying the session', async () => {
    const { ws, client } = await aTenant(t);
    const user = await anEndUser(t, client, { smtp });
    const seen: DomainEvents['login_success'][] = [];
    const checks: Promise<void>[] = [];
    // The listener looks the session up with its own connection: it must already be committed.
    const listener = (event: DomainEvents['login_success']) => {
      checks.push(
        t.dataSource.query('SELECT id FROM end_user_sessions WHERE id = $1', [event.session.id]).then((rows: unknown[]) => {
          if (rows.length === 1) seen.push(event);
        }),
      );
    };
    t.get<EventEmitter2>(EventEmitter2).on('login_success', listener);
    try {
      const tokens = await logIn(t, user);
      await Promise.all(checks);
      expect(seen).toHaveLength(1);
      expect(seen[0].session).toEqual(
        expect.objectContaining({
          id: tokens.session_id,
          workspaceId: ws.id,
          userId: user.id,
          oauthClientId: client.id,
          kind: 'api',
          ipAddress: '127.0.0.1',
        }),
      );
      expect(seen[0].user.email).toBe(user.email);
    } finally {
      t.get<EventEmitter2>(EventEmitter2).off('login_success', listener);
    }
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const { client } = await aTenant(t);
    const user = await anEndUser(t, client);
    const wrong = await t
      .http()
      .post('/e/v1/auth/login/')
      .send({ client_id: client.client_id, email: user.email, password: 'not the password' });
    const unknown = await t
      .http()
      .post('/e/v1/auth/login/')
      .send({ client_id: client.client_id, email: 'nobody@example.test', password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body).toEqual({ error: 'invalid_credentials', message: 'Email or password is incorrect' });
  });
});
