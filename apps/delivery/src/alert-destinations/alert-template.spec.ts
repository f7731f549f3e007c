import { compileTemplate, jsonErrorOffset, TemplateError } from './alert-template';
import { sampleAlert, templateContext } from './alert-payload';

const context = (overrides: Record<string, unknown> = {}) => ({ ...templateContext(sampleAlert('alt_1'), 'https://dash.example.com', false), ...overrides });

describe('alert payload templates', () => {
  it('renders nested alert fields (title, source.database, actor.user, links.dashboard) in a template', () => {
    const render = compileTemplate('{"text": "{{title}}", "db": "{{source.database}}", "who": "{{actor.user}}", "link": "{{links.dashboard}}"}');
    expect(render(context())).toEqual({ text: 'Test alert from Vigil', db: 'db_test', who: 'test_user', link: 'https://dash.example.com/alerts/alt_1' });
  });

  it.each([
    ['critical', 'P1'],
    ['high', 'P2'],
    ['low', 'P3'],
  ])('chooses values with #if / else if / eq (%s -> %s)', (severity, priority) => {
    const render = compileTemplate('{"priority": "{{#if (eq severity "critical")}}P1{{else if (eq severity "high")}}P2{{else}}P3{{/if}}"}');
    expect(render(context({ severity }))).toEqual({ priority });
  });

  it('keeps hostile alert content intact and the JSON valid', () => {
    const hostile = 'quote " backslash \\ newline \n tab \t {{title}} }}{{ </script> \u2028 \u0000 "},"x":"';
    const render = compileTemplate('{"title": "{{title}}", "user": "{{actor.user}}", "q": "{{{description}}}", "raw": "{{raw_event}}"}');
    const out = render(context({ title: hostile, description: hostile, actor: { user: '__proto__' }, raw_event: { constructor: 'x', a: '"' } })) as Record<string, unknown>;
    expect(out.title).toBe(hostile);
    expect(out.q).toBe(hostile);
    expect(out.user).toBe('__proto__');
    expect(JSON.parse(out.raw as string)).toEqual({ constructor: 'x', a: '"' });
    expect(Object.keys(out)).toEqual(['title', 'user', 'q', 'raw']);
  });

  it('does not reach prototype properties through the template', () => {
    const render = compileTemplate('{"a": "{{constructor.name}}", "b": "{{__proto__}}", "c": "{{title.constructor}}"}');
    expect(render(context())).toEqual({ a: '', b: '', c: '' });
  });

  it('writes JSON literals with the json helper', () => {
    const render = compileTemplate('{"rows": {{json event.rows_affected}}, "none": {{json missing}}, "actor": {{json actor}} }');
    expect(render(context())).toEqual({ rows: 1, none: null, actor: { user: 'test_user', client_ip: '203.0.113.10', application: 'psql' } });
  });

  it('refuses a template that does not compile, naming the line', () => {
    expect(() => compileTemplate('{\n  "a": "{{#if title}}x"\n}')).toThrow(TemplateError);
    try {
      compileTemplate('{\n  "a": "x",\n  "b": "{{title"\n}');
    } catch (error) {
      expect((error as TemplateError).line).toBe(3);
    }
  });

  it('refuses output that is not JSON, naming the line', () => {
    const render = compileTemplate('{\n  "a": "{{title}}",\n  "b": {{title}}\n}');
    expect(() => render(context())).toThrow(/line 3/);
  });

  it('locates the first JSON syntax error', () => {
    expect(jsonErrorOffset('{"a": 1}')).toBe(-1);
    expect(jsonErrorOffset('{"a": x}')).toBe(6);
    expect(jsonErrorOffset('[1, 2,]')).toBe(6);
  });
});
