import Handlebars from 'handlebars';

type Node = { type: string; loc?: unknown; [key: string]: unknown };

const ESCAPE_HELPER = '__vigil_json_escape';

/** JSON string content of a value (no surrounding quotes): what goes between the quotes of a template. */
export function jsonEscape(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // JSON.stringify escapes quotes, backslashes and control characters; U+2028/2029 are valid JSON.
  return JSON.stringify(text).slice(1, -1);
}

/** One Handlebars environment for alert templates: `eq` and `json` helpers, no `log`, no partials. */
const env = Handlebars.create();
env.unregisterHelper('log');
env.registerHelper('eq', (a: unknown, b: unknown) => a === b);
// `{{json x}}` writes a JSON literal (null, number, quoted string, object), for use outside quotes.
env.registerHelper('json', (value: unknown) => new Handlebars.SafeString(JSON.stringify(value === undefined ? null : value)));
env.registerHelper(ESCAPE_HELPER, (value: unknown) => {
  if (value instanceof Handlebars.SafeString) return value;
  return new Handlebars.SafeString(jsonEscape(value));
});

/**
 * Rewrites every `{{expr}}` (and `{{{expr}}}`) into `{{{__vigil_json_escape (expr)}}}`: Handlebars'
 * own escaping is for HTML and would let a quote or backslash in alert content break out of a JSON
 * string, so output goes through the JSON escape instead. `{{json x}}` is left as it is.
 */
function rewrite(node: Node | undefined): void {
  if (!node) return;
  if (node.type === 'Program') {
    (node.body as Node[]).forEach(rewrite);
    return;
  }
  if (node.type === 'BlockStatement') {
    rewrite(node.program as Node | undefined);
    rewrite(node.inverse as Node | undefined);
    return;
  }
  if (node.type !== 'MustacheStatement') return;
  const path = node.path as Node & { original?: string };
  if (path.type === 'PathExpression' && path.original === 'json') return;
  const params = node.params as Node[];
  const hash = node.hash as Node | undefined;
  const inner: Node = params.length || hash ? { type: 'SubExpression', path, params, hash, loc: node.loc } : path;
  node.path = { type: 'PathExpression', data: false, depth: 0, parts: [ESCAPE_HELPER], original: ESCAPE_HELPER, loc: node.loc };
  node.params = [inner];
  node.hash = undefined;
  node.escaped = false;
}

export class TemplateError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

function lineOf(text: string, position: number): number {
  return text.slice(0, position).split('\n').length;
}

/**
 * Where JSON text first goes wrong (V8's messages do not always give a position): a small
 * recursive-descent scan that answers the offset of the first offending character.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!number) fail();
    i += number![0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
  } catch (offset) {
    return offset as number;
  }
  return -1;
}

function parseJson(rendered: string): unknown {
  try {
    return JSON.parse(rendered);
  } catch (error) {
    const offset = jsonErrorOffset(rendered);
    const line = offset >= 0 ? lineOf(rendered, offset) : null;
    throw new TemplateError(`does not render valid JSON${line ? ` (line ${line})` : ''}: ${(error as Error).message.split('\n')[0]}`, line);
  }
}

export type CompiledTemplate = (context: Record<string, unknown>) => unknown;

/**
 * Compiles a payload template. Throws TemplateError (with the line when Handlebars or the JSON
 * parser names one) for a template that does not parse. The compiled function renders and parses
 * the result: it returns the JSON value, or throws TemplateError when the output is not JSON.
 */
export function compileTemplate(source: string): CompiledTemplate {
  let render: HandlebarsTemplateDelegate;
  try {
    const ast = env.parse(source) as unknown as Node;
    rewrite(ast);
    render = env.compile(ast as unknown as hbs.AST.Program, { strict: false, noEscape: false, knownHelpers: { eq: true, json: true, [ESCAPE_HELPER]: true }, preventIndent: true });
  } catch (error) {
    const message = (error as Error).message;
    const line = /line (\d+)/.exec(message)?.[1];
    throw new TemplateError(`does not compile${line ? ` (line ${line})` : ''}: ${message.split('\n')[0]}`, line ? Number(line) : null);
  }
  return (context) => {
    let rendered: string;
    try {
      rendered = render(context, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
    } catch (error) {
      const message = (error as Error).message;
      const line = /line (\d+)/.exec(message)?.[1];
      throw new TemplateError(`does not render${line ? ` (line ${line})` : ''}: ${message.split('\n')[0]}`, line ? Number(line) : null);
    }
    return parseJson(rendered);
  };
}

/** Compiled templates by source: destinations share few templates, and compiling is the slow part. */
export class TemplateCache {
  private readonly compiled = new Map<string, CompiledTemplate>();

  get(source: string): CompiledTemplate {
    let template = this.compiled.get(source);
    if (!template) {
      template = compileTemplate(source);
      if (this.compiled.size >= 500) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(source, template);
    }
    return template;
  }
}
