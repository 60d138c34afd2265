import { accountKey } from './rate-limit.guard';

describe('accountKey', () => {
  it('is the email, case- and space-insensitive, within its client or workspace', () => {
    expect(accountKey({ client_id: 'c1', email: ' Ada@Example.com ' })).toBe(accountKey({ client_id: 'c1', email: 'ada@example.com' }));
    expect(accountKey({ client_id: 'c1', email: 'ada@example.com' })).not.toBe(accountKey({ client_id: 'c2', email: 'ada@example.com' }));
    expect(accountKey({ workspace_id: 'w1', email: 'ada@example.com' })).not.toBe(accountKey({ email: 'ada@example.com' }));
  });

  it('is null without an email', () => {
    expect(accountKey(undefined)).toBeNull();
    expect(accountKey({ client_id: 'c1' })).toBeNull();
    expect(accountKey({ email: 42 })).toBeNull();
  });
});
