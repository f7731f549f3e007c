import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { type FieldError, isUnstorableText } from '@vigil/contracts';
import { CommonErrorCode, DomainException } from './domain.exception';

const ACCEPTS_ANY_TEXT = Symbol('vigil:accepts-any-text');

/**
 * Marks a request DTO whose strings are stored whatever they hold (audit records: event-ingest
 * stores U+0000 and lone surrogates in an escaped, reversible form). Every other input is refused.
 */
export function AcceptsAnyText(): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(ACCEPTS_ANY_TEXT, true, target);
  };
}

const MAX_REPORTED = 20;

function collect(value: unknown, path: string, out: FieldError[], depth = 0): void {
  if (out.length >= MAX_REPORTED || depth > 64) return;
  if (typeof value === 'string') {
    if (isUnstorableText(value)) out.push({ field: path || '$', message: 'must not contain U+0000 (NUL) or an unpaired UTF-16 surrogate' });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => collect(item, `${path}[${i}]`, out, depth + 1));
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (isUnstorableText(key)) {
        out.push({ field: path || '$', message: `has a key that contains U+0000 (NUL) or an unpaired UTF-16 surrogate` });
        if (out.length >= MAX_REPORTED) return;
        continue;
      }
      collect(inner, field, out, depth + 1);
    }
  }
}

/**
 * Refuses U+0000 and unpaired surrogates in every path parameter, query parameter and body the
 * handlers of a service read, with a 400 naming each field: PostgreSQL `text` and `jsonb` cannot
 * hold them, and no identifier, name, filter or configuration needs them. Applied once, globally,
 * at the gateway edge (docs/architecture.md#input-checks).
 */
export class UnstorableTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') return value;
    if (metadata.metatype && Reflect.getMetadata(ACCEPTS_ANY_TEXT, metadata.metatype)) return value;
    const errors: FieldError[] = [];
    collect(value, metadata.data ?? '', errors);
    if (errors.length) {
      throw new DomainException(400, CommonErrorCode.UnstorableText, 'Text holding U+0000 (NUL) or an unpaired UTF-16 surrogate is refused.', errors);
    }
    return value;
  }
}
