import { DataSource } from 'typeorm';
import { computed, nested, NO_ROW } from './row-shape';
import { RowShapeError } from './rows';
import { declaredStatements, statement, statementFamily } from './statement';

// Computed shapes need no entity metadata; a data source that is never connected stands in for the app's.
const dataSource = new DataSource({ type: 'postgres' });

describe('computed row shapes', () => {
  const shape = computed({ total: 'number', pageKey: ['page_key', 'text'], note: 'text?', at: 'timestamp?' });
  const read = shape.reader(dataSource);

  it('reads each column into its property, by kind', () => {
    const at = new Date('2026-11-26T12:00:00Z');
    expect(read({ total: '42', page_key: '1764158400000000', note: null, at })).toEqual({
      total: 42,
      pageKey: '1764158400000000',
      note: null,
      at,
    });
  });

  it('refuses a value of another type, naming the column', () => {
    expect(() => read({ total: 'many', page_key: 'k', note: null, at: null })).toThrow(new RowShapeError('total', 'number', 'many'));
  });

  it('refuses a column missing from the row, even a nullable one (a renamed alias is not a null)', () => {
    expect(() => read({ total: 1, page_key: 'k', at: null })).toThrow(RowShapeError);
  });

  it('combines shapes over one row, and nests one that a LEFT JOIN may leave empty', () => {
    const combined = computed({ id: 'text' }).and(nested('link', computed({ seq: ['link_seq', 'number'] }), 'link_seq'));
    expect(combined.reader(dataSource)({ id: 'a', link_seq: '7' })).toEqual({ id: 'a', link: { seq: 7 } });
    expect(combined.reader(dataSource)({ id: 'b', link_seq: null })).toEqual({ id: 'b', link: null });
  });

  it('lists the columns it reads', () => {
    expect(shape.fields(dataSource).map((f) => f.column)).toEqual(['total', 'page_key', 'note', 'at']);
    expect(NO_ROW.fields(dataSource)).toEqual([]);
  });
});

describe('the statement catalog', () => {
  it('lists each declared statement once, and refuses a second with the same id', () => {
    const s = statement('row-shape-spec.one', 'SELECT 1 AS n', computed({ n: 'number' }));
    expect(declaredStatements()).toContain(s);
    expect(() => statement('row-shape-spec.one', 'SELECT 2 AS n', computed({ n: 'number' }))).toThrow(/declared twice/);
  });

  it('lists every sample of a family under its own id, and builds the others on demand', () => {
    const page = statementFamily('row-shape-spec.page', NO_ROW, (after: boolean) => `SELECT 1 FROM t${after ? ' WHERE id > $1' : ''}`, {
      first: [false],
      next: [true],
    });
    const ids = declaredStatements().map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['row-shape-spec.page[first]', 'row-shape-spec.page[next]']));
    expect(page(true)).toMatchObject({ id: 'row-shape-spec.page', text: 'SELECT 1 FROM t WHERE id > $1' });
    expect(page.of('SELECT 1 FROM t LIMIT $1').text).toBe('SELECT 1 FROM t LIMIT $1');
  });
});
