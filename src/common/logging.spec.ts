import { SECRET_PATTERNS } from '../../test/support/global-teardown';

describe('the log secret scanner', () => {
  it('recognises every credential format we mint', () => {
    const samples = [
      'dat_' + 'a'.repeat(54),
      'scim_' + 'b'.repeat(54),
      'cs_' + 'c'.repeat(54),
      'rt_' + 'd'.repeat(54),
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop',
      'postgres://u:secret@host/db',
    ];
    for (const sample of samples) expect(SECRET_PATTERNS.some(([, p]) => p.test(`{"msg":"${sample}"}`))).toBe(true);
    expect(SECRET_PATTERNS.some(([, p]) => p.test('{"msg":"request completed","path":"/developer/tokens/"}'))).toBe(false);
  });
});
