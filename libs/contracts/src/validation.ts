import { FormatRegistry, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (value) => ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));
}

export interface FieldError {
  /** JSON path of the offending field, e.g. `events[3].type`. */
  field: string;
  message: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export interface Validator<S extends TSchema> {
  readonly schema: S;
  validate(value: unknown, pathPrefix?: string): ValidationResult<Static<S>>;
}

/** Turns a JSON pointer (`/events/3/type`) into the JSON path style of our problem documents. */
export function pointerToPath(pointer: string, prefix = ''): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let path = prefix;
  for (const part of parts) {
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else path += path ? `.${part}` : part;
  }
  return path || '$';
}

/** Compiles a TypeBox schema once; validation afterwards is a plain function call. */
export function createValidator<S extends TSchema>(schema: S): Validator<S> {
  const compiled = TypeCompiler.Compile(schema);
  return {
    schema,
    validate(value: unknown, pathPrefix = ''): ValidationResult<Static<S>> {
      if (compiled.Check(value)) return { ok: true, value: value as Static<S> };
      const errors: FieldError[] = [];
      const seen = new Set<string>();
      for (const error of compiled.Errors(value)) {
        const field = pointerToPath(error.path, pathPrefix);
        // One message per field keeps the answer readable (unions report every branch).
        if (seen.has(field)) continue;
        seen.add(field);
        errors.push({ field, message: error.message });
        if (errors.length >= 50) break;
      }
      return { ok: false, errors };
    },
  };
}
