import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { MailOutboxRepository, NewOutboxMessage } from './mail-outbox.repository';

/** The outbox is written in a workspace's transaction and delivered by id (the job knows only the id). */
describe('MailOutboxRepository', () => {
  let outbox: MailOutboxRepository;
  const db = repositoriesForSuite([MailOutboxRepository], (booted) => (outbox = booted));

  const aMessage = (): NewOutboxMessage => ({
    template: 'verification_code',
    toAddress: `to-${randomUUID().slice(0, 8)}@example.test`,
    fromName: 'Acme',
    subject: 'Your code is 123456',
    html: '<p>123456</p>',
    text: '123456',
  });

  it('answers a written message for delivery, pending', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const message = aMessage();
    const id = await db.dataSource.transaction((tx) => outbox.insert(tx, ws, message));
    expect(await outbox.forDelivery(id)).toEqual({ id, status: 'pending', ...message });
  });

  it('writes nothing when the transaction of the change rolls back', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    let id = '';
    await expect(
      db.dataSource.transaction(async (tx) => {
        id = await outbox.insert(tx, ws, aMessage());
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await outbox.forDelivery(id)).toBeNull();
  });

  it('drops the bodies of a sent message and masks the code in its subject', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const id = await db.dataSource.transaction((tx) => outbox.insert(tx, ws, aMessage()));
    await outbox.markSent(id, { messageId: '<m1@example.test>', fileName: null });
    expect(await outbox.forDelivery(id)).toMatchObject({ status: 'sent', html: null, text: null, subject: 'Your code is ******' });
  });

  it("lists a workspace's messages written to files, newest first, and never another workspace's", async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const write = async (workspaceId: string, fileName: string | null) => {
      const id = await db.dataSource.transaction((tx) => outbox.insert(tx, workspaceId, aMessage()));
      await outbox.markSent(id, { messageId: `<${id}@example.test>`, fileName });
      return id;
    };
    const first = await write(ws, 'first.eml');
    await write(ws, null); // sent over SMTP: no file
    await write(other, 'other.eml');
    await db.dataSource.transaction((tx) => outbox.insert(tx, ws, aMessage())); // still pending
    const second = await write(ws, 'second.eml');
    const listed = await outbox.lastWrittenToFiles(ws, 10);
    expect(listed.map((m) => [m.id, m.fileName])).toEqual([
      [second, 'second.eml'],
      [first, 'first.eml'],
    ]);
    expect(listed[0]).toMatchObject({ template: 'verification_code', sentAt: expect.any(Date) as Date });
    expect(await outbox.lastWrittenToFiles(ws, 1)).toHaveLength(1);
  });

  it('keeps a message pending while it will be retried, failed after its last attempt', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const id = await db.dataSource.transaction((tx) => outbox.insert(tx, ws, aMessage()));
    await outbox.markAttemptFailed(id, 'connection refused', 'pending');
    expect((await outbox.forDelivery(id))?.status).toBe('pending');
    await outbox.markAttemptFailed(id, 'connection refused', 'failed');
    const [row] = await db.dataSource.query<{ attempts: number; last_error: string }[]>(
      'SELECT attempts, last_error FROM mail_outbox WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ attempts: 2, last_error: 'connection refused' });
    expect((await outbox.forDelivery(id))?.status).toBe('failed');
  });

  // The workspace's read is the console Mailbox (messages written to files); delivery is by id.
  itKeepsTheTenantContract('mail_outbox (Mailbox)', db, {
    create: async (workspaceId) => {
      const id = await db.dataSource.transaction((tx) => outbox.insert(tx, workspaceId, aMessage()));
      await outbox.markSent(id, { messageId: `<${id}@example.test>`, fileName: `${id}.eml` });
      return id;
    },
    read: async (workspaceId, id) => (await outbox.lastWrittenToFiles(workspaceId, 50)).find((m) => m.id === id),
  });
});
