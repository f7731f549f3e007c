import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { createValidator, type Validator } from './validation';

/**
 * The envelope of every domain event on the bus. `id` is unique per event and is what
 * consumers de-duplicate on; `key` is the aggregate id and the Kafka message key, so all
 * events of one aggregate stay in order on one partition.
 */
export const envelopeSchema = <T extends TSchema>(data: T) =>
  Type.Object({
    id: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.String({ minLength: 1, maxLength: 100 }),
    schema_version: Type.Integer({ minimum: 1 }),
    occurred_at: Type.String({ format: 'date-time' }),
    key: Type.String({ minLength: 1, maxLength: 200 }),
    correlation_id: Type.Optional(Type.String({ maxLength: 200 })),
    data,
  });

export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  schema_version: number;
  occurred_at: string;
  key: string;
  correlation_id?: string;
  data: T;
}

export type EnvelopeOf<T extends TSchema> = Static<ReturnType<typeof envelopeSchema<T>>>;

export function createEnvelopeValidator<T extends TSchema>(data: T): Validator<ReturnType<typeof envelopeSchema<T>>> {
  return createValidator(envelopeSchema(data));
}
