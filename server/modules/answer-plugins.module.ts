import * as v from 'valibot';
import { ANSWER_PLUGIN_NAMES, DEFAULT_ANSWER_PLUGINS } from '../../adapters/answer-plugins/names.js';
import { setting } from '../config/variables.js';
import type { ServiceModule } from './module.js';

/** Plug-in names separated by commas, or `none`; a typo must not turn a plug-in off silently. */
const pluginList = v.pipe(
  v.string(),
  v.transform((raw) => (raw.toLowerCase() === 'none' ? [] : [...new Set(raw.toLowerCase().split(',').map((name) => name.trim()).filter(Boolean))])),
  v.check(
    (names) => names.every((name) => ANSWER_PLUGIN_NAMES.includes(name)),
    (issue) => `"${(issue.input as string[]).find((name) => !ANSWER_PLUGIN_NAMES.includes(name))}" is no plug-in: use ${ANSWER_PLUGIN_NAMES.join(', ')} or none`,
  ),
);

const ANSWER_PLUGINS = setting('ANSWER_PLUGINS', pluginList, [...DEFAULT_ANSWER_PLUGINS], 'Knowledge of kinds of documents used by retrieval and the embedded answerer (comma-separated plug-in names, or none)', {
  defaultText: DEFAULT_ANSWER_PLUGINS.join(','),
});

export interface AnswerPluginsSection {
  /** Plug-ins of knowledge about kinds of documents (adapters/answer-plugins), by name. */
  answerPlugins: string[];
}

/** Domain plug-ins: read here, used by the models family (the answerer's skills) and the core (query planners). */
export const answerPluginsModule: ServiceModule<AnswerPluginsSection> = {
  family: 'answer plug-ins',
  variables: [ANSWER_PLUGINS],
  configure: (env) => ({ answerPlugins: env.read(ANSWER_PLUGINS) }),
  started: (config) => ({ answerPlugins: config.answerPlugins.join(',') || 'none' }),
};
