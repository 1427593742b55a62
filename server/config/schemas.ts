import * as v from 'valibot';

/** The value schemas the families' variables share; each message is what the error says after the variable's name. */
export const text = v.string();

export const httpUrl = v.pipe(
  v.string(),
  v.url('must be a URL such as http://host:port'),
  v.check((s) => /^https?:\/\//.test(s), 'must start with http:// or https://'),
  v.transform((s) => s.replace(/\/+$/, '')),
);

export const portNumber = v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.integer(), v.minValue(0), v.maxValue(65535, 'must be at most 65535'));

export const positiveInt = (max: number) =>
  v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(1, 'must be at least 1'), v.maxValue(max, `must be at most ${max}`));

export const wholeNumber = (max: number) =>
  v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.maxValue(max, `must be at most ${max}`));

export const flag = v.pipe(
  v.string(),
  v.transform((s) => s.toLowerCase()),
  v.picklist(['true', 'false', '1', '0'], 'must be true or false'),
  v.transform((s) => s === 'true' || s === '1'),
);

export const minLength = (n: number) => v.pipe(v.string(), v.minLength(n, `must be at least ${n} characters`));

export const oneOf = <const T extends string>(values: readonly T[]) =>
  v.pipe(v.string(), v.toLowerCase(), v.picklist(values, `must be ${values.length === 2 ? values.join(' or ') : `one of ${values.join(', ')}`}`));
