import fc from 'fast-check';
import { SAFE_NAME, SAFE_PASSWORD, generateDbName, generatePassword, usernameFor } from './credentials';

describe('generated credentials', () => {
  it('makes URL-safe passwords that survive a connection string unchanged', () => {
    for (let i = 0; i < 200; i++) {
      const pw = generatePassword();
      expect(pw).toMatch(SAFE_PASSWORD);
      expect(encodeURIComponent(pw)).toBe(pw);
      expect(new URL(`postgres://u:${pw}@h:1/d`).password).toBe(pw);
    }
  });

  it('makes safe, unique database names from any display name', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (display) => {
        const name = generateDbName(display);
        expect(name).toMatch(SAFE_NAME);
        expect(usernameFor(name)).toMatch(SAFE_NAME);
      }),
    );
    expect(generateDbName('Orders DB (prod)')).toMatch(/^orders_db_prod_[a-z0-9]{10}$/);
    expect(generateDbName('42 things')).toMatch(/^db_42_things_[a-z0-9]{10}$/);
    expect(generateDbName('***')).toMatch(/^db_[a-z0-9]{10}$/);
    expect(generateDbName('x')).not.toBe(generateDbName('x'));
  });
});
