import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';
import { ident, scramVerifier, sql } from './postgres-sql';

const PW = 'Abc_def-123456789012345678901234';

describe('postgres admin SQL', () => {
  it('quotes generated names and refuses anything else', () => {
    expect(ident('orders_ab12cd34ef')).toBe('"orders_ab12cd34ef"');
    for (const bad of ['x"; DROP ROLE postgres; --', 'Upper', '', 'a b', 'a'.repeat(80)]) {
      expect(() => ident(bad)).toThrow(/unsafe/);
    }
  });

  it('gives the role a connection limit, no privileges, and never the password in clear', () => {
    const stmt = sql.createRole('u_orders', PW, 20);
    expect(stmt).toMatch(/^CREATE ROLE "u_orders" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE/);
    expect(stmt).toContain('CONNECTION LIMIT 20');
    expect(stmt).not.toContain(PW);
    expect(stmt).toMatch(/PASSWORD 'SCRAM-SHA-256\$4096:[^']+'$/);
    expect(() => sql.createRole('u_orders', PW, 0)).toThrow(/max_connections/);
  });

  it('computes the SCRAM verifier as RFC 7677 describes', () => {
    const salt = Buffer.alloc(16, 7);
    const v = scramVerifier(PW, salt, 4096);
    const salted = pbkdf2Sync(PW, salt, 4096, 32, 'sha256');
    const stored = createHash('sha256').update(createHmac('sha256', salted).update('Client Key').digest()).digest('base64');
    const server = createHmac('sha256', salted).update('Server Key').digest('base64');
    expect(v).toBe(`SCRAM-SHA-256$4096:${salt.toString('base64')}$${stored}:${server}`);
  });

  it('revokes PUBLIC access and drops with IF EXISTS so retries succeed', () => {
    expect(sql.revokePublic('db_x')).toBe('REVOKE ALL ON DATABASE "db_x" FROM PUBLIC');
    expect(sql.dropDatabase('db_x')).toBe('DROP DATABASE IF EXISTS "db_x" WITH (FORCE)');
    expect(sql.dropRole('u_db_x')).toBe('DROP ROLE IF EXISTS "u_db_x"');
  });
});
