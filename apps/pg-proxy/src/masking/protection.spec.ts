import type { ActiveMaskRule } from '../enforcement/enforcer';
import { decodeFields, errorResponse } from '../protocol/messages';
import { CAPTURE_HEAD, CAPTURE_LIMIT, CAPTURE_TAIL, captureQuery } from '../sql/capture-limit';
import { loadSqlParser, SqlAnalyzer } from '../sql/sql-analyzer';
import type { CatalogSnapshot } from './catalog';
import { moveTaint, plainOutputs, protectionView, type SessionNames, statementTaint } from './protection';
import { maskNotification, scrubNotice, scrubText, WITHHELD_MESSAGE } from './scrub';

beforeAll(() => loadSqlParser());

const rule = (over: Partial<ActiveMaskRule> = {}): ActiveMaskRule => ({ policyId: 'pol_1', policyName: 'p', rule: 'r', method: 'redact', showFirst: 0, showLast: 4, table: 'customers', column: 'ssn', shadow: false, ...over });
const snapshot: CatalogSnapshot = {
  relations: new Map([
    [100, { schema: 'public', table: 'customers', kind: 'r', columns: new Map([[1, 'id'], [2, 'name'], [3, 'ssn']]) }],
    [200, { schema: 'public', table: 'items', kind: 'r', columns: new Map([[1, 'id'], [2, 'label']]) }],
    [300, { schema: 'public', table: 'v1', kind: 'v', columns: new Map([[1, 'x']]) }],
    [301, { schema: 'public', table: 'v2', kind: 'v', columns: new Map([[1, 'y']]) }],
    [302, { schema: 'public', table: 'v_clean', kind: 'v', columns: new Map([[1, 'name']]) }],
    [400, { schema: 'public', table: 'customers_2026', kind: 'r', columns: new Map([[1, 'id'], [2, 'ssn']]) }],
  ]),
  viewDeps: new Map([
    [300, [{ rel: 100, att: 3 }]],
    [301, [{ rel: 300, att: 1 }]],
    [302, [{ rel: 100, att: 2 }]],
  ]),
  userFunctions: new Set(['reveal']),
  builtinFunctions: new Set(['upper', 'row_to_json', 'query_to_xml', 'count', 'set_config', 'now']),
  parents: new Map([[400, [100]]]),
  at: Date.now(),
};
const analyzer = new SqlAnalyzer();
const one = (sql: string) => analyzer.analyze(sql).statements![0]!;
const names = (): SessionNames => ({ prepared: new Map(), cursors: new Map() });

describe('protection: which statements are proven clean', () => {
  const view = protectionView(snapshot, [rule()]);

  it('protects tables with a protected column and views reading one, through other views', () => {
    expect([...view.names.keys()].sort()).toEqual(['customers', 'customers_2026', 'v1', 'v2']);
    // A partition holds what its parent's rule protects.
    expect(view.columns.get(400)?.get(2)?.column).toBe('ssn');
    expect([...view.wholeRelations.keys()].sort()).toEqual([300, 301]);
  });

  it.each([
    ['SELECT upper(label) FROM items', undefined],
    ['SELECT row_to_json(i) FROM items i', undefined],
    ['SELECT count(*) FROM v_clean', undefined],
    ['SELECT c FROM customers c', 'customers'],
    ['SELECT upper(y) FROM v2', 'v2'],
    ["SELECT query_to_xml('select 1', true, false, '')", 'query_to_xml()'],
    ['SELECT reveal(1)', 'reveal()'],
    ['SELECT public.upper(label) FROM items', 'public.upper()'],
    ['SELECT brand_new(1)', 'brand_new()'],
    ['EXECUTE unknown', 'EXECUTE unknown (unknown prepared statement)'],
    ['FETCH ALL FROM c', 'FETCH c (unknown cursor)'],
    ['CALL p()', 'CALL'],
  ])('%s -> %s', (sql, reason) => {
    expect(statementTaint(view, one(sql), names())?.reason).toBe(reason);
  });

  it('judges EXECUTE and FETCH by what the session prepared or declared', () => {
    const session = names();
    session.prepared.set('p', one('PREPARE p AS SELECT upper(ssn) FROM customers').prepares!.query);
    session.prepared.set('q', one('PREPARE q AS SELECT 1').prepares!.query);
    session.cursors.set('c', one('DECLARE c CURSOR FOR SELECT label FROM items').declares!.query);
    expect(statementTaint(view, one('EXECUTE p'), session)?.reason).toBe('customers');
    expect(statementTaint(view, one('EXECUTE q'), session)).toBeUndefined();
    expect(statementTaint(view, one('FETCH 2 FROM c'), session)).toBeUndefined();
  });

  it('tells clean texts without the parser only when nothing in them could be protected', () => {
    expect(view.mayTaint('SELECT upper(label) FROM items WHERE id = 1')).toBe(false);
    expect(view.mayTaint('SELECT label FROM items WHERE id = 1')).toBe(false);
    for (const text of ['SELECT 1 FROM customers', 'SELECT brand_new(1)', 'SELECT upper/**/(x)', 'SELECT "x"', "SELECT table_to_xml('x', true, false, '')", 'EXECUTE p', 'SELECT U&"\\0063"']) {
      expect([text, view.mayTaint(text)]).toEqual([text, true]);
    }
  });

  it.each([
    ['INSERT INTO items SELECT id, ssn FROM customers', true],
    ["INSERT INTO items VALUES (1, 'x')", false],
    ['INSERT INTO items SELECT id, label FROM items', false],
    ['CREATE TABLE t AS SELECT ssn FROM customers', true],
    ['SELECT ssn INTO t FROM customers', true],
    ['WITH m AS (INSERT INTO items SELECT 1, ssn FROM customers RETURNING 1) SELECT 1', true],
    ['PREPARE m AS INSERT INTO items SELECT 1, ssn FROM customers', true],
    ['UPDATE customers SET name = ssn', true],
    ['UPDATE customers c SET name = c::text', true],
    ['UPDATE customers SET name = upper(name) WHERE ssn = $1', false],
    ["SELECT set_config('a.b', ssn, false) FROM customers", true],
    ["SELECT set_config('a.b', label, false) FROM items", false],
  ])('%s copies protected values: %s', (sql, moves) => {
    expect(!!moveTaint(view, one(sql))).toBe(moves);
  });

  it('tells plain column outputs from computed ones (PROXY_MASK_COMPUTED=refuse)', () => {
    expect(plainOutputs(one('SELECT c.id, ssn, * FROM customers c JOIN items i ON true'))).toBe(true);
    expect(plainOutputs(one('SELECT c FROM customers c'))).toBe(false);
    expect(plainOutputs(one('SELECT upper(ssn) FROM customers'))).toBe(false);
    expect(plainOutputs(one('SELECT * FROM (SELECT upper(ssn) FROM customers) s'))).toBe(false);
    expect(plainOutputs(one('UPDATE customers SET name = name RETURNING id'))).toBe(true);
    expect(plainOutputs(one('EXECUTE p'))).toBe(false);
  });

  it('taints everything when the catalog could not be read', () => {
    const blind = { ...protectionView({ ...snapshot, relations: new Map(), viewDeps: new Map() }, [rule()]), unknown: true };
    expect(statementTaint(blind, one('SELECT 1'), names())?.reason).toBe('catalog unavailable');
  });
});

describe('scrubbing errors and notices', () => {
  it('replaces quoted parts and what follows a colon, and keeps the words', () => {
    expect(scrubText('invalid input syntax for type integer: "123-45-6789"')).toBe('invalid input syntax for type integer: ***');
    expect(scrubText('relation "123-45" does not exist')).toBe('relation "***" does not exist');
    expect(scrubText("value 'x''y' is odd")).toBe("value '***' is odd");
  });

  it('drops detail, hint and context, keeps SQLSTATE, and withholds messages functions may have chosen', () => {
    const error = errorResponse({ code: '22P02', message: 'invalid input syntax for type json', detail: 'Token "S3CR3T" is invalid.', hint: 'S3CR3T' });
    const scrubbed = decodeFields(scrubNotice('E', error.subarray(5), false).subarray(5));
    expect(scrubbed).toEqual({ S: 'ERROR', V: 'ERROR', C: '22P02', M: 'invalid input syntax for type json' });
    expect(decodeFields(scrubNotice('E', errorResponse({ code: 'P0001', message: 'S3CR3T' }).subarray(5), false).subarray(5)).M).toBe(WITHHELD_MESSAGE);
    expect(decodeFields(scrubNotice('E', errorResponse({ code: '22P02', message: 'S3CR3T' }).subarray(5), true).subarray(5)).M).toBe(WITHHELD_MESSAGE);
    expect(decodeFields(scrubNotice('N', errorResponse({ code: '00000', message: 'S3CR3T' }).subarray(5), false).subarray(5)).M).toBe(WITHHELD_MESSAGE);
  });

  it('masks notification payloads and keeps the channel', () => {
    const body = Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('chan\0S3CR3T\0')]);
    expect(maskNotification(body).subarray(5).toString()).toBe('\0\0\0\u0007chan\0***\0');
  });
});

describe('capture limit', () => {
  it('keeps short texts whole, and of long ones head, tail, length and SHA-256', () => {
    expect(captureQuery('SELECT 1')).toEqual({ query: 'SELECT 1' });
    const long = `SELECT '${'a'.repeat(CAPTURE_LIMIT)}', 'end'`;
    const out = captureQuery(long);
    expect(out.capture).toMatchObject({ truncated: true, length: long.length, head_chars: CAPTURE_HEAD, tail_chars: CAPTURE_TAIL });
    expect(out.capture!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(out.query.startsWith(long.slice(0, CAPTURE_HEAD))).toBe(true);
    expect(out.query.endsWith(long.slice(-CAPTURE_TAIL))).toBe(true);
    expect(out.query).toContain(`/* vigil: ${long.length - CAPTURE_HEAD - CAPTURE_TAIL} characters omitted */`);
  });
});
