/**
 * `doc-chat/adapters/answer-plugins`: the plug-ins of knowledge about kinds of documents, by name, and the embedded
 * answerer built with them. Plain names in, so a worker thread can build the same answerer from its workerData.
 */
import type { AnswerSkill, QueryPlanner } from '../../core/index.js';
import { ExtractiveAnswerer } from '../extractive/extractive-answerer.js';
import { FINANCIAL_STATEMENTS, financialAnswerSkill, financialQueryPlanner } from '../financial-statements/plugin.js';
import { RECEIPTS, receiptsAnswerSkill, receiptsQueryPlanner } from '../receipts/plugin.js';
import { ANSWER_PLUGIN_NAMES, DEFAULT_ANSWER_PLUGINS } from './names.js';

export { ANSWER_PLUGIN_NAMES, DEFAULT_ANSWER_PLUGINS };

export interface AnswerPlugin {
  /** For the ask flow: query wording and pinned searches. */
  planner: QueryPlanner;
  /** For the extractive answerer: answers of its own and table rows to quote. */
  skill: AnswerSkill;
}

const PLUGINS: Record<string, AnswerPlugin> = {
  [RECEIPTS]: { planner: receiptsQueryPlanner, skill: receiptsAnswerSkill },
  [FINANCIAL_STATEMENTS]: { planner: financialQueryPlanner, skill: financialAnswerSkill },
};

/** The plug-ins of these names, in order; an unknown name is an error (a typo must not turn a plug-in off silently). */
export function answerPlugins(names: readonly string[]): AnswerPlugin[] {
  return names.map((name) => {
    const plugin = PLUGINS[name];
    if (!plugin) throw new Error(`unknown answer plug-in '${name}' (known: ${ANSWER_PLUGIN_NAMES.join(', ')})`);
    return plugin;
  });
}

export interface ExtractiveAnswererOptions {
  /** Plug-in names (default DEFAULT_ANSWER_PLUGINS). */
  plugins?: readonly string[];
  /** Sentence weights (default SENTENCE_WEIGHTS). */
  weights?: readonly number[];
}

/** The embedded answerer with the named plug-ins' skills. */
export function createExtractiveAnswerer(options: ExtractiveAnswererOptions = {}): ExtractiveAnswerer {
  const skills = answerPlugins(options.plugins ?? DEFAULT_ANSWER_PLUGINS).map((plugin) => plugin.skill);
  return options.weights ? new ExtractiveAnswerer(options.weights, skills) : new ExtractiveAnswerer(undefined, skills);
}
