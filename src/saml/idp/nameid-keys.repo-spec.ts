import { randomBytes } from 'node:crypto';
import { bootRepositories, RepositoryHarness } from '../../../test/support/repository';
import { NameIdKeysRepository } from './nameid-keys.repository';

describe('NameIdKeysRepository', () => {
  let db: RepositoryHarness;
  let keys: NameIdKeysRepository;
  beforeAll(async () => {
    db = await bootRepositories([NameIdKeysRepository]);
    keys = db.get(NameIdKeysRepository);
  });
  afterAll(() => db.close());

  const aCandidate = () => ({ sealedKey: randomBytes(32).toString('base64url'), checkValue: randomBytes(16).toString('hex') });

  it('keeps the first key claimed: every later (or racing) claim answers the row in force', async () => {
    const answers = await Promise.all([aCandidate(), aCandidate(), aCandidate()].map((candidate) => keys.claim(candidate)));
    const inForce = await keys.find();
    expect(inForce).not.toBeNull();
    for (const answer of answers) expect(answer).toEqual(inForce);
    expect(await keys.claim(aCandidate())).toEqual(inForce);
  });
});
