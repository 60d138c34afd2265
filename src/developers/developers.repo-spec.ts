import { randomUUID } from 'node:crypto';
import { repositoriesForSuite } from '../../test/support/repository';
import { DevelopersRepository } from './developers.repository';

/** Dashboard accounts: not tenant data (a developer belongs to many workspaces). */
describe('DevelopersRepository', () => {
  let developers: DevelopersRepository;
  const db = repositoriesForSuite([DevelopersRepository], (booted) => (developers = booted));

  const anEmail = () => `dev-${randomUUID().slice(0, 12)}@example.test`;

  it('finds an account by email in any case; only the password read carries the hash', async () => {
    const email = anEmail();
    const made = await developers.insert({ email, name: 'Ada', passwordHash: 'argon2-hash' });
    const withPassword = await developers.findWithPasswordByEmail(email);
    expect(withPassword).toMatchObject({ id: made.id, email, passwordHash: 'argon2-hash' });
    const plain = await db.dataSource.transaction((tx) => developers.findByEmail(tx, email));
    expect(plain?.id).toBe(made.id);
    expect(plain?.passwordHash).toBeUndefined();
    expect((await developers.findByEmail(null, email))?.id).toBe(made.id);
    expect((await developers.findById(made.id))?.email).toBe(email);
  });

  it('refuses a second account with the same email in another case', async () => {
    const email = anEmail();
    await developers.insert({ email, name: 'First', passwordHash: 'x' });
    await expect(developers.insert({ email: email.toUpperCase(), name: 'Second', passwordHash: 'x' })).rejects.toThrow(
      /developers_email_key|unique/i,
    );
  });

  it('answers null for an unknown email or id', async () => {
    expect(await developers.findWithPasswordByEmail(anEmail())).toBeNull();
    expect(await developers.findById(randomUUID())).toBeNull();
  });
});
