import { aWorkspaceRow, anEndUserRow, repositoriesForSuite } from '../../test/support/repository';
import { APP_CONFIG } from '../config/config';
import { CODE_TTL_MS, CodesRepository } from './codes.repository';

describe('CodesRepository', () => {
  let codes: CodesRepository;
  const db = repositoriesForSuite([CodesRepository], (booted) => (codes = booted), {
    moreProviders: [{ provide: APP_CONFIG, useValue: { AUTH_JWT_SECRET: 'repo-spec-secret-'.repeat(3) } }],
  });

  it('keeps one live code per account and purpose: a new one replaces the old and resets its attempts', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const user = await anEndUserRow(db.dataSource, ws);
    const now = new Date();
    const firstCode = await db.transaction((t) => codes.issue(t, ws, user, 'email_verification', now));
    const [first] = await db.transaction((t) => codes.lockCodes(t, 'email_verification', [user]));
    await db.transaction((t) => codes.countFailure(t, [first.id]));
    const secondCode = await db.transaction((t) => codes.issue(t, ws, user, 'email_verification', now));
    const rows = await db.transaction((t) => codes.lockCodes(t, 'email_verification', [user]));
    expect(rows).toHaveLength(1);
    expect(rows[0].attempts).toBe(0);
    expect(rows[0].expiresAt.getTime()).toBe(now.getTime() + CODE_TTL_MS);
    expect(codes.matches(rows[0], secondCode)).toBe(true);
    if (secondCode !== firstCode) expect(codes.matches(rows[0], firstCode)).toBe(false);
  });

  it('stores the code as an HMAC, never the plaintext, and keeps purposes apart', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const user = await anEndUserRow(db.dataSource, ws);
    const code = await db.transaction((t) => codes.issue(t, ws, user, 'password_reset', new Date()));
    const [row] = await db.transaction((t) => codes.lockCodes(t, 'password_reset', [user]));
    expect(row.codeHash).not.toContain(code);
    expect(await db.transaction((t) => codes.lockCodes(t, 'sign_in', [user]))).toEqual([]);
  });

  it('counts failed attempts on the codes named', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const user = await anEndUserRow(db.dataSource, ws);
    await db.transaction((t) => codes.issue(t, ws, user, 'sign_in', new Date()));
    const [row] = await db.transaction((t) => codes.lockCodes(t, 'sign_in', [user]));
    await db.transaction((t) => codes.countFailure(t, [row.id]));
    await db.transaction((t) => codes.countFailure(t, [row.id]));
    expect((await db.transaction((t) => codes.lockCodes(t, 'sign_in', [user])))[0].attempts).toBe(2);
  });

  it("removes a code only in its own workspace: another workspace's removal leaves it", async () => {
    const [owner, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const user = await anEndUserRow(db.dataSource, owner);
    await db.transaction((t) => codes.issue(t, owner, user, 'email_verification', new Date()));
    await db.transaction((t) => codes.remove(t, other, user, 'email_verification'));
    expect(await db.transaction((t) => codes.lockCodes(t, 'email_verification', [user]))).toHaveLength(1);
    await db.transaction((t) => codes.remove(t, owner, user, 'email_verification'));
    expect(await db.transaction((t) => codes.lockCodes(t, 'email_verification', [user]))).toEqual([]);
  });
});
