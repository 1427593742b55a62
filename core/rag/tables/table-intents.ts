/**
 * What a question asks of a table, as data: each intent a trigger in one language and the operation it asks for,
 * tried in order (the first that matches wins, "lookup" when none does). Domain-neutral words only: a plug-in adds
 * its own vocabulary and definitions beside these, for the kinds of document it serves.
 */
import type { TableOperation } from './table-arithmetic.js';

export interface TableIntent {
  operation: Exclude<TableOperation, 'lookup'>;
  /** BCP 47 language of the trigger's words. */
  language: string;
  trigger: RegExp;
}

const MOVE = String.raw`(?:change|increase|decrease|growth|decline|rise|drop|fall|grow|grew|fell|rose|declined|increased|decreased|changed|movement)`;

// "%" stands after a space, where no word boundary is: "(?:\b(?:percent)|%)", not "\b(?:percent|%)".
export const TABLE_INTENTS: readonly TableIntent[] = [
  // "Absolute change" of a percentage is the difference of its points, not a change relative to the earlier.
  { operation: 'change', language: 'en', trigger: /\babsolute\s+(?:percentage\s+|percent\s+)?(?:change|difference|increase|decrease)\b/i },
  { operation: 'percent-change', language: 'en', trigger: new RegExp(String.raw`(?:\b(?:percentage|percent)|%)\s*(?:point\s+)?${MOVE}|\b${MOVE}\s+(?:in\s+)?(?:percentage|percent)\b|\b${MOVE}\s*\(%\)|\bgrowth rate\b|\b(?:percentage|percent)\s+difference\b|\bby what (?:percentage|percent)\b|\bwhat (?:percentage|percent) (?!of\b)(?:\S+\s+){1,8}?${MOVE}|(?:\b(?:percentage|percent)|%)\s*${MOVE}`, 'i') },
  { operation: 'share', language: 'en', trigger: /(?:\b(?:percentage|proportion|share|fraction|percent)|%)\s+of\b/i },
  // "Weighted-average exchange rates", "weighted average shares": a row's name, not an operation.
  { operation: 'average', language: 'en', trigger: /(?<!\bweighted[- ])\baverage\b|\bmean\b/i },
  { operation: 'ratio', language: 'en', trigger: /\bratio\b|\bdivided by\b/i },
  { operation: 'difference', language: 'en', trigger: /\bdifference\b|\bhow much (?:more|less|higher|lower|greater)\b/i },
  { operation: 'change', language: 'en', trigger: new RegExp(String.raw`\b${MOVE}\b`, 'i') },
  { operation: 'sum', language: 'en', trigger: /\bsum\b|\bcombined\b|\baltogether\b|\btotal\s+(?:of|for)\s+(?:both|all|each)\b/i },
  // "What is the total X across all 3 years?": the periods' sum.
  { operation: 'sum', language: 'en', trigger: /\btotal\b.*\b(?:across|over|in|for)\s+(?:all|the)\s+(?:\d|two|three|four|five)\s+years\b/i },
  // "What is the total X in 2018 and 2019?": the periods' sum, unless each is asked ("respectively").
  { operation: 'sum', language: 'en', trigger: /^(?!.*\b(?:respectively|each)\b).*\btotal\b.*\b(?:19|20)\d\d\b.*\b(?:and|to|-|through)\b\s*(?:19|20)\d\d\b/i },
];

/** The operation a question asks for, by the first intent whose trigger it holds ("lookup" when none). */
export function operationAsked(question: string, intents: readonly TableIntent[] = TABLE_INTENTS): TableOperation {
  return intents.find((intent) => intent.trigger.test(question))?.operation ?? 'lookup';
}

/**
 * The words of a question that only say what to compute or which period (not which row): left out when its words
 * are matched against row labels.
 */
export const OPERATION_WORDS = new Set(
  ('absolute change changes changed increase increased increases decrease decreased decreases growth grow grew decline declined ' +
    'rise rose drop fall fell movement percentage percent proportion share fraction average mean ratio difference sum ' +
    'combined altogether between from to year years period periods value amount figure respectively both ' +
    'compared comparison vs versus how much many what which was were is are the in of for and did does do').split(' '),
);
