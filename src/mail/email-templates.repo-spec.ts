import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { EmailTemplatesRepository } from './email-templates.repository';

const content = (subject: string) => ({ subject, from_name: 'Acme', body: 'Your code is {{code}}' });

describe('EmailTemplatesRepository', () => {
  let templates: EmailTemplatesRepository;
  const db = repositoriesForSuite([EmailTemplatesRepository], (booted) => (templates = booted));

  const read = (workspaceId: string, name: string) => db.dataSource.transaction((tx) => templates.find(tx, workspaceId, name));

  itKeepsTheTenantContract('email templates', db, {
    create: async (workspaceId) => (await templates.save(workspaceId, 'verification_code', content('Hello'))).name,
    read: async (workspaceId, name) => (await read(workspaceId, name)) ?? undefined,
  });

  it('saves a copy, overwrites it on a second save, and lists only the workspace’s own', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const first = await templates.save(ws, 'verification_code', content('First'));
    expect(first).toEqual({
      name: 'verification_code',
      subject: 'First',
      from_name: 'Acme',
      body: 'Your code is {{code}}',
      updatedAt: expect.any(Date),
    });
    const second = await templates.save(ws, 'verification_code', content('Second'));
    expect(second.subject).toBe('Second');
    expect(second.updatedAt.getTime()).toBeGreaterThanOrEqual(first.updatedAt.getTime());
    await templates.save(other, 'verification_code', content('Theirs'));
    expect((await templates.list(ws)).map((t) => t.subject)).toEqual(['Second']);
    expect(await read(ws, 'verification_code')).toEqual({ subject: 'Second', from_name: 'Acme', body: 'Your code is {{code}}' });
  });
});
