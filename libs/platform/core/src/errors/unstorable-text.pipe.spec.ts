import 'reflect-metadata';
import { DomainException } from './domain.exception';
import { AcceptsAnyText, UnstorableTextPipe } from './unstorable-text.pipe';

describe('UnstorableTextPipe', () => {
  const pipe = new UnstorableTextPipe();
  const fieldsOf = (run: () => unknown): string[] => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainException);
      expect((error as DomainException).status).toBe(400);
      expect((error as DomainException).code).toBe('unstorable_text');
      return (error as DomainException).errors!.map((e) => e.field);
    }
    throw new Error('not refused');
  };

  it('names a path parameter, a query parameter and nested body fields holding U+0000', () => {
    expect(fieldsOf(() => pipe.transform('pol_\u0000', { type: 'param', data: 'id' }))).toEqual(['id']);
    expect(fieldsOf(() => pipe.transform({ user: 'a\u0000', page: 2 }, { type: 'query' }))).toEqual(['user']);
    const body = { name: 'ok', config: { rules: [{ pattern: 'x' }, { pattern: 'DROP\u0000' }] }, databases: ['db_a', '\u0000'] };
    expect(fieldsOf(() => pipe.transform(body, { type: 'body' }))).toEqual(['config.rules[1].pattern', 'databases[1]']);
  });

  it('refuses lone surrogates and keys holding U+0000, and passes paired surrogates', () => {
    expect(fieldsOf(() => pipe.transform({ description: 'x\ud800' }, { type: 'body' }))).toEqual(['description']);
    expect(fieldsOf(() => pipe.transform({ custom_headers: { ['X-\u0000']: 'v' } }, { type: 'body' }))).toEqual(['custom_headers']);
    expect(pipe.transform({ description: 'smile \ud83d\ude00' }, { type: 'body' })).toEqual({ description: 'smile \ud83d\ude00' });
  });

  it('lets through the DTOs marked as accepting any text (audit records)', () => {
    @AcceptsAnyText()
    class Records {
      events!: unknown[];
    }
    const value = { events: [{ details: { query: 'a\u0000' } }] };
    expect(pipe.transform(value, { type: 'body', metatype: Records })).toBe(value);
  });
});
