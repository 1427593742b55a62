/**
 * A follow-up that asks for a period relative to the one before ("And the year before?", "What about the following
 * year?"): the period it means, counted from the year the previous question named, else the year the previous answer
 * states first (its direct line: "Net income, 2019: $8,985 million", the column a table answer read when no year was
 * asked). Relative phrases are data, one entry per language and direction; no subject or domain words.
 */

export interface RelativePeriod {
  /** BCP 47 language of the trigger's words. */
  language: string;
  /** Years from the period before: -1 for "the year before", +1 for "the year after". */
  offset: number;
  trigger: RegExp;
}

const PERIOD = String.raw`(?:year|period)`;

export const RELATIVE_PERIODS: readonly RelativePeriod[] = [
  { language: 'en', offset: -1, trigger: new RegExp(String.raw`\b(?:the\s+|a\s+)?${PERIOD}\s+(?:before|earlier|prior)\b|\b(?:the\s+)?(?:previous|prior|preceding|earlier)\s+${PERIOD}\b`, 'i') },
  { language: 'en', offset: 1, trigger: new RegExp(String.raw`\b(?:the\s+|a\s+)?${PERIOD}\s+(?:after|later)\b|\b(?:the\s+)?(?:next|following|subsequent|later)\s+${PERIOD}\b`, 'i') },
];

const YEAR = /\b(?:19|20)\d\d\b/;

/**
 * The question with its relative period written as the year it means ("And the year before?" after a question about
 * 2019 → "And 2018?"), or undefined when it names none, or nothing before it names a year to count from.
 */
export function withPeriodResolved(question: string, previousQuestion: string, previousAnswer?: string, periods: readonly RelativePeriod[] = RELATIVE_PERIODS): string | undefined {
  const relative = periods.find((period) => period.trigger.test(question));
  if (!relative) return undefined;
  const from = yearOf(previousQuestion) ?? (previousAnswer === undefined ? undefined : yearOf(directLine(previousAnswer)));
  if (from === undefined) return undefined;
  return question.replace(relative.trigger, String(from + relative.offset));
}

/** The first year a text names. */
function yearOf(text: string): number | undefined {
  const found = YEAR.exec(text);
  return found ? Number(found[0]) : undefined;
}

/** An answer's direct line: its first paragraph, before the quotes that support it. */
function directLine(answer: string): string {
  return answer.split(/\n\s*\n/)[0].split('“')[0];
}
