import { randomBytes } from 'node:crypto';
import { repositoriesForSuite } from '../../../test/support/repository';
import { NameIdKeysRepository } from './nameid-keys.repository';

describe('NameIdKeysRepository', () => {
  let keys: NameIdKeysRepository;
  // The per-worker database is shared with the e2e suites of the same run: a made-up key left in force would
  // stop every application booted on it afterwards (it cannot open the key), so this spec removes what it claimed.
  const checkValues: string[] = [];
  repositoriesForSuite([NameIdKeysRepository], (booted) => (keys = booted), {
    beforeClose: (tier) => tier.dataSource.query('DELETE FROM saml_nameid_keys WHERE check_value = ANY($1)', [checkValues]),
  });

  const aCandidate = () => {
    const candidate = { sealedKey: randomBytes(32).toString('base64url'), checkValue: randomBytes(16).toString('hex') };
    checkValues.push(candidate.checkValue);
    return candidate;
  };

  it('keeps the first key claimed: every later (or racing) claim answers the row in force', async () => {
    const answers = await Promise.all([aCandidate(), aCandidate(), aCandidate()].map((candidate) => keys.claim(candidate)));
    const inForce = await keys.find();
    expect(inForce).not.toBeNull();
    for (const answer of answers) expect(answer).toEqual(inForce);
    expect(await keys.claim(aCandidate())).toEqual(inForce);
  });
});
