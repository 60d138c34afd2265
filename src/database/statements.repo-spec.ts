import { readFileSync } from 'node:fs';
import type { PoolClient } from 'pg';
import type { QueryRunner } from 'typeorm';
import { bootRepositories, RepositoryHarness } from '../../test/support/repository';
import { EndUser } from '../end-user-directory/entities/end-user.entity';
import { entityColumns } from './row-shape';
import { RowShapeError } from './rows';
import { bindStatements, declaredStatements, type Statement } from './statement';
import { loadStatementModules, renderSnapshot, SNAPSHOT_PATH } from './statement-snapshot';

/** How many $n placeholders the text binds (the highest n). */
function placeholderCount(text: string): number {
  return Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
}

/** A statement that only reads (no INSERT/UPDATE/DELETE anywhere in it, CTEs included): its result columns can be looked at with LIMIT 0. */
function onlyReads(text: string): boolean {
  return /^\s*(SELECT|WITH)\b/i.test(text) && !/\b(INSERT\s+INTO|UPDATE\s+\w+(\s+\w+)?\s+SET|DELETE\s+FROM)\b/i.test(text);
}

describe('typed SQL statements', () => {
  loadStatementModules();
  const statements = declaredStatements();
  let db: RepositoryHarness;
  let runner: QueryRunner;
  let client: PoolClient;

  beforeAll(async () => {
    db = await bootRepositories([]);
    runner = db.dataSource.createQueryRunner();
    client = (await runner.connect()) as PoolClient;
  });
  afterAll(async () => {
    await runner?.release();
    await db?.close();
  });

  it('are all in the checked-in snapshot, text for text (regenerate with `npm run sql:snapshot`)', () => {
    expect(statements.length).toBeGreaterThan(0);
    expect(readFileSync(SNAPSHOT_PATH, 'utf8')).toBe(renderSnapshot(statements));
  });

  it('each binds its row shape to the entities as declared (a renamed property fails here, and at boot)', () => {
    for (const s of statements) expect(() => s.shape.fields(db.dataSource)).not.toThrow();
    expect(() => bindStatements(db.dataSource)).not.toThrow();
  });

  it('a shape naming a property its entity does not have fails when bound, with the entity and property named', () => {
    const renamed = entityColumns(EndUser, ['emailAddress' as keyof EndUser & string]);
    expect(() => renamed.reader(db.dataSource)).toThrow('row shape: EndUser has no column for property emailAddress');
  });

  it('an entity column is read by its declared type and nullability', () => {
    const read = entityColumns(EndUser, ['email', 'passwordHash', 'isActive']).reader(db.dataSource);
    expect(read({ email: 'a@example.test', password_hash: null, is_active: true })).toEqual({
      email: 'a@example.test',
      passwordHash: null,
      isActive: true,
    });
    expect(() => read({ email: null, password_hash: null, is_active: true })).toThrow(RowShapeError);
    expect(() => read({ email: 'a@example.test', password_hash: null, is_active: 'yes' })).toThrow(RowShapeError);
  });

  it.each(statements.map((s) => [s.id, s] as [string, Statement<unknown>]))('%s prepares against the migrated schema', async (_id, s) => {
    await client.query('DEALLOCATE ALL');
    await client.query(`PREPARE checked AS ${s.text}`);
    await client.query('DEALLOCATE checked');
  });

  const readers = statements.filter((s) => onlyReads(s.text));
  it.each(readers.map((s) => [s.id, s] as [string, Statement<unknown>]))('%s answers every column its row shape reads', async (_id, s) => {
    const values = Array.from({ length: placeholderCount(s.text) }, () => null);
    // LIMIT 0 fetches no row (a function in the select list never runs); rolled back all the same.
    await client.query('BEGIN');
    const result = await client
      .query({ text: `SELECT * FROM (${s.text}) answered LIMIT 0`, values })
      .finally(() => client.query('ROLLBACK'));
    const answered = result.fields.map((f) => f.name);
    for (const field of s.shape.fields(db.dataSource)) expect(answered).toContain(field.column);
  });
});
