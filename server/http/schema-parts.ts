import * as v from 'valibot';

/** Described strings and numbers the response schemas are made of (response-schemas.ts, library-response-schemas.ts). */
export const text = (description: string) => v.pipe(v.string(), v.description(description));
export const timestamp = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description));
export const wholeNumber = (description: string) => v.pipe(v.number(), v.integer(), v.minValue(0), v.description(description));
