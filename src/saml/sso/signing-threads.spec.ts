import { signingThreadCount } from './signing-threads';

describe('signing threads per process', () => {
  it('is one when the process has a second core, none when it has one, and SAML_SIGNING_THREADS when set', () => {
    expect(signingThreadCount(undefined, 2)).toBe(1);
    expect(signingThreadCount(undefined, 8)).toBe(1);
    expect(signingThreadCount(undefined, 1)).toBe(0);
    expect(signingThreadCount(0, 2)).toBe(0);
    expect(signingThreadCount(3, 1)).toBe(3);
  });
});
