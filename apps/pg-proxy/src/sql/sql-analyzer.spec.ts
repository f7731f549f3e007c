import { loadSqlParser, mayHoldSeveralStatements, SqlAnalyzer } from './sql-analyzer';

beforeAll(() => loadSqlParser());

describe('SQL analysis with the PostgreSQL parser', () => {
  const analyzer = new SqlAnalyzer();

  it('splits a multi-statement string into statements with their own text, type and objects', () => {
    const { statements } = analyzer.analyze("BEGIN; UPDATE shop.orders SET paid = true WHERE id = 1; DELETE FROM carts; SELECT ';' AS semi FROM a JOIN b ON a.id = b.id; COMMIT");
    expect(statements!.map((s) => [s.text, s.type, s.objects])).toEqual([
      ['BEGIN', 'BEGIN', []],
      ['UPDATE shop.orders SET paid = true WHERE id = 1', 'UPDATE', ['shop.orders']],
      ['DELETE FROM carts', 'DELETE', ['carts']],
      ["SELECT ';' AS semi FROM a JOIN b ON a.id = b.id", 'SELECT', ['a', 'b']],
      ['COMMIT', 'COMMIT', []],
    ]);
  });

  it('names DDL and COPY direction', () => {
    const [drop, create, copyOut, copyIn] = analyzer.analyze('DROP TABLE x; CREATE TABLE y (a int); COPY y TO STDOUT; COPY y FROM STDIN').statements!;
    expect([drop!.type, drop!.ddl, create!.type, create!.ddl]).toEqual(['DROP TABLE', true, 'CREATE TABLE', true]);
    expect([copyOut!.copyTo, copyIn!.copyTo]).toEqual([true, false]);
  });

  it('finds columns read by computed output expressions, not plain column references', () => {
    const [s] = analyzer.analyze("SELECT id, ssn AS x, upper(c.email), coalesce(phone, '') || 'x' FROM customers c").statements!;
    expect(s!.computedColumnRefs.sort()).toEqual(['email', 'phone']);
  });

  it('shares one analysis between texts differing in numbers only, never across double-quoted identifiers', () => {
    const a = analyzer.analyzeNumbersBlanked('SELECT abalance FROM pgbench_accounts WHERE aid = 17');
    const b = analyzer.analyzeNumbersBlanked('SELECT abalance FROM pgbench_accounts WHERE aid = 42');
    expect(a).toBe(b);
    expect(a![0]!.reads.relations).toEqual(['pgbench_accounts']);
    expect(analyzer.analyzeNumbersBlanked('SELECT x FROM "secret 1"')![0]!.reads.relations).toEqual(['secret 1']);
    expect(analyzer.analyzeNumbersBlanked("SELECT 'a 1', t1.x FROM t1")![0]!.reads.relations).toEqual(['t1']);
  });

  it('answers null for text that does not parse (the server reports the error)', () => {
    expect(analyzer.analyze('SELEC 1').statements).toBeNull();
  });

  it.each([
    ['SELECT 1', false],
    ['SELECT 1;', false],
    ['SELECT 1; ', false],
    ['SELECT 1; SELECT 2', true],
    ["SELECT ';x'", true],
  ])('tells cheaply whether %j may hold several statements', (text, several) => expect(mayHoldSeveralStatements(text)).toBe(several));
});

describe('statement shapes', () => {
  it('blanks literals but not identifiers', async () => {
    const { literalShape } = await import('./sql-analyzer');
    expect(literalShape("SELECT a1, 'it''s' FROM t2 WHERE x = 12 AND y = 3.5 AND z = $1")).toBe("SELECT a1, '' FROM t2 WHERE x = 0 AND y = 0 AND z = $1");
  });

  it('describes texts that differ in literals from one analysis, with each own text', () => {
    const analyzer = new SqlAnalyzer();
    const a = analyzer.describe('UPDATE accounts SET b = b + 5 WHERE id = 1')!;
    const b = analyzer.describe('UPDATE accounts SET b = b + 7 WHERE id = 99')!;
    expect([a.type, a.objects, b.type, b.objects, b.text]).toEqual(['UPDATE', ['accounts'], 'UPDATE', ['accounts'], 'UPDATE accounts SET b = b + 7 WHERE id = 99']);
  });
});
