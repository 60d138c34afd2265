import { createHash } from 'node:crypto';
import { keyPrefix, setUserArgs } from './redis-acl';

const PW = 'Abc_def-123456789012345678901234';

describe('redis tenant ACL rules', () => {
  const args = setUserArgs('u_orders_x1', 'orders_x1', PW);

  it('resets the user first so a re-run converges, and confines keys and channels to the prefix', () => {
    expect(args.slice(0, 3)).toEqual(['u_orders_x1', 'reset', 'on']);
    expect(args).toContain('~orders_x1:*');
    expect(args).toContain('&orders_x1:*');
    expect(args.filter((a) => a.startsWith('~') || a.startsWith('&'))).toHaveLength(2);
  });

  it('sends only the password hash', () => {
    expect(args.join(' ')).not.toContain(PW);
    expect(args).toContain('#' + createHash('sha256').update(PW).digest('hex'));
  });

  it('denies keyspace-wide and server-wide commands after granting the data commands', () => {
    const lastGrant = Math.max(args.indexOf('+@read'), args.indexOf('+@write'));
    for (const cmd of [
      'keys',
      'scan',
      'randomkey',
      'dbsize',
      'flushall',
      'flushdb',
      'swapdb',
      'move',
      'copy',
      'select',
      'migrate',
      'sort',
      'pubsub',
    ]) {
      expect(args.indexOf(`-${cmd}`)).toBeGreaterThan(lastGrant);
    }
    for (const cat of ['-@dangerous', '-@admin', '-@scripting']) expect(args.indexOf(cat)).toBeGreaterThan(lastGrant);
    expect(args).not.toContain('+@all');
    expect(args).not.toContain('allkeys');
  });

  it('refuses names that could smuggle glob characters or extra rules', () => {
    expect(() => keyPrefix('a*')).toThrow(/unsafe/);
    expect(() => setUserArgs('u x', 'db', PW)).toThrow(/unsafe/);
    expect(() => setUserArgs('u_x', 'db', 'short')).toThrow(/password/);
  });
});
