import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ValidateIf } from 'class-validator';
import type { FieldError } from '@vigil/contracts';
import { DomainException } from './domain.exception';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const key = /^\d+$/.test(error.property) ? `[${error.property}]` : error.property;
    const field = parent ? (key.startsWith('[') ? `${parent}${key}` : `${parent}.${key}`) : key;
    for (const message of Object.values(error.constraints ?? {})) {
      out.push({ field, message: message.replace(/^property \S+ /, 'field ') });
    }
    if (error.children?.length) out.push(...flatten(error.children, field));
  }
  return out;
}

/**
 * class-validator DTOs with whitelist + forbid unknown fields; failures become a 400 problem
 * document whose `errors[].field` are JSON paths (`config.rules[0].pattern`).
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => DomainException.validation(flatten(errors)),
  });
}

/**
 * An optional field that may be omitted but not sent as null. `@IsOptional()` skips validation
 * for null too, and an update then hands the null to code that takes a present field for a value
 * (a NOT NULL column, a loop over a list): here a null is validated like any value, and refused.
 */
export function OptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: unknown, value: unknown) => value !== undefined);
}
