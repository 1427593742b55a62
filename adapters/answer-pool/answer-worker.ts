/**
 * The task module of the pool's threads (pool-thread.ts loads its default export): the extractive answerer is built once per thread and
 * answers every task sent to it; with a database file, a read-only connection to its lexical index serves the
 * retrieval of whole questions. Plain data in and out; nothing here touches the request thread's state.
 */
import { workerData } from 'node:worker_threads';
import { RetrieveAndAnswer, type RetrievalSettings } from '../../core/use-cases/retrieve-and-answer.js';
import type { IndexQuery, VectorIndex } from '../../core/ports/vector-index.js';
import { answerPlugins, createExtractiveAnswerer, DEFAULT_ANSWER_PLUGINS } from '../answer-plugins/index.js';
import { openSqliteReader, SqliteFtsIndex } from '../sqlite/index.js';
import { runPoolTask, type AnswerWorkerData, type PoolResult, type PoolTask } from './pool-task.js';

const { plugins, sqliteFile } = (workerData ?? {}) as AnswerWorkerData;
const answerer = createExtractiveAnswerer({ plugins });
const planners = answerPlugins(plugins ?? DEFAULT_ANSWER_PLUGINS).map((plugin) => plugin.planner);
let lexical: VectorIndex | undefined;

/**
 * The same retrieval as AskQuestion's on the request thread, over this thread's own connection (opened at first use);
 * each search's duration goes to `searchSeconds` (the request thread puts them in the metrics).
 */
function grounded(settings: RetrievalSettings, searchSeconds: number[]): RetrieveAndAnswer {
  const index = (lexical ??= new SqliteFtsIndex(openSqliteReader(sqliteFile!)));
  const timed: VectorIndex = Object.assign(Object.create(index) as VectorIndex, {
    search: async (query: IndexQuery) => {
      const started = performance.now();
      try {
        return await index.search(query);
      } finally {
        searchSeconds.push((performance.now() - started) / 1000);
      }
    },
  });
  return new RetrieveAndAnswer({ indexes: [timed], llm: answerer, planners, settings });
}

export default function answerTask(task: PoolTask): Promise<PoolResult> {
  return runPoolTask(task, answerer, sqliteFile ? grounded : undefined);
}
