import * as v from 'valibot';
import { ValidationError } from '../../core/domain/errors.js';

/** Parses a request part against a schema; the first problem becomes a 400 with a message naming the field. */
export function parse<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = v.getDotPath(issue);
  throw new ValidationError(field ? `${field}: ${issue.message}` : issue.message);
}

const required = (name: string, type: string) => `${name} is required and must be ${type}`;
export const requiredString = (name: string) => v.string(required(name, 'a string'));
export const requiredNumber = (name: string) => v.number(required(name, 'a number'));
export const body = <T extends v.ObjectEntries>(entries: T) => v.object(entries, 'request body must be a JSON object');
