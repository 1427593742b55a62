/**
 * What a question asks, as data: a plug-in declares one table of intents (each a trigger in one language, the kinds of
 * document it is asked of, the retrieval it needs and the answer it gets) instead of regular expressions spread over
 * its files. The names of plans and answers are the plug-in's own; the core only finds the rows a question holds.
 */
export interface QuestionIntent<Name extends string = string, Plan = string, Shape extends string = string> {
  /** What the question asks for. */
  intent: Name;
  /** BCP 47 language of the trigger's words. */
  language: string;
  /** The kinds of document it is asked of (DocumentClassifier's names). */
  kinds: readonly string[];
  /** Words of the (lower-cased) question that ask it. */
  trigger: RegExp;
  /** Asked only when the question holds these too. */
  requires?: RegExp;
  /** Not asked when the question holds these. */
  unless?: RegExp;
  /** The retrieval it needs (the plug-in's name for the searches it pins, or their words). */
  plan: Plan;
  /** The answer it gets (the plug-in's name for the answer it builds). */
  answer: Shape;
}

/** The rows of `table` the question asks, in the table's order (earlier rows take precedence where one is wanted). */
export function intentsAsked<I extends QuestionIntent<string, unknown>>(question: string, table: readonly I[]): I[] {
  const q = question.toLowerCase();
  return table.filter((row) => row.trigger.test(q) && (!row.requires || row.requires.test(q)) && !(row.unless && row.unless.test(q)));
}

/** The kinds of document a table's intents are asked of: what its plug-in serves. */
export function intentKinds(table: readonly QuestionIntent<string, unknown>[]): string[] {
  return [...new Set(table.flatMap((row) => row.kinds))];
}
