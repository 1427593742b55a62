import { UpstreamUnavailableError } from '../../core/domain/errors.js';
import type { Embedder } from '../../core/ports/embedder.js';
import type { DependencyProbe } from '../../core/ports/health-check.js';
import { DEFAULT_OLLAMA_TIMEOUT_MS, OLLAMA_DEPENDENCY, OllamaConnection } from './ollama-connection.js';

export interface OllamaEmbedderOptions {
  /** Base URL of the Ollama server, e.g. http://127.0.0.1:11434. */
  host: string;
  /** Embedding model, e.g. nomic-embed-text. */
  model: string;
  /** Deadline of each request (one batch), default 120 000 ms. */
  timeoutMs?: number;
  /** Texts per /api/embed request, default 32. */
  batchSize?: number;
  /** Deadline of `check()`, default min(timeoutMs, 5 000) ms. */
  checkTimeoutMs?: number;
  /** How long Ollama keeps the model loaded after a request (its `keep_alive`), e.g. "30m". Server default when unset. */
  keepAlive?: string | number;
  /** Overrides the task prefixes the model table gives (see EMBEDDING_TASK_PREFIXES). */
  prefixes?: Partial<TaskPrefixes>;
}

export interface TaskPrefixes {
  document: string;
  query: string;
}

/**
 * Task prefixes by model-name prefix: some embedding models are trained to embed a query and a passage
 * differently and need to be told which one they get. First match wins; unknown models get none.
 */
export const EMBEDDING_TASK_PREFIXES: ReadonlyArray<{ modelPrefix: string; prefixes: TaskPrefixes }> = [
  // nomic-embed-text v1/v1.5/v2: https://huggingface.co/nomic-ai/nomic-embed-text-v1.5
  { modelPrefix: 'nomic-embed-text', prefixes: { document: 'search_document: ', query: 'search_query: ' } },
  // mxbai-embed-large: only the query carries the prompt. https://huggingface.co/mixedbread-ai/mxbai-embed-large-v1
  { modelPrefix: 'mxbai-embed-large', prefixes: { document: '', query: 'Represent this sentence for searching relevant passages: ' } },
];

/** The prefixes for a model name (namespace such as "library/" or "hf.co/user/" ignored, case-insensitive). */
export function taskPrefixesFor(model: string): TaskPrefixes {
  const base = model.trim().toLowerCase().split('/').pop() ?? '';
  return EMBEDDING_TASK_PREFIXES.find((entry) => base.startsWith(entry.modelPrefix))?.prefixes ?? { document: '', query: '' };
}

export const DEFAULT_EMBED_BATCH_SIZE = 32;

/**
 * Embeddings from an Ollama server (POST /api/embed). Documents go in batches, in order; the model's task prefixes
 * are added. Every failure (server down, deadline, missing model, 5xx, a malformed answer) is an
 * UpstreamUnavailableError.
 */
export class OllamaEmbedder implements Embedder, DependencyProbe {
  readonly name = 'ollama-embeddings';
  readonly model: string;
  readonly batchSize: number;
  readonly prefixes: TaskPrefixes;
  private readonly connection: OllamaConnection;
  private readonly checkTimeoutMs?: number;
  private readonly keepAlive?: string | number;

  constructor(options: OllamaEmbedderOptions) {
    if (!options.model) throw new Error('Ollama embedding model is required');
    this.model = options.model;
    this.batchSize = options.batchSize ?? DEFAULT_EMBED_BATCH_SIZE;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) throw new Error('batchSize must be a positive integer');
    this.connection = new OllamaConnection(options.host, options.timeoutMs ?? DEFAULT_OLLAMA_TIMEOUT_MS);
    this.prefixes = { ...taskPrefixesFor(options.model), ...options.prefixes };
    this.checkTimeoutMs = options.checkTimeoutMs;
    this.keepAlive = options.keepAlive;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize).map((t) => this.prefixes.document + t);
      vectors.push(...(await this.embed(batch)));
    }
    return vectors;
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.embed([this.prefixes.query + text]);
    return vector;
  }

  /** Readiness: the server answers and has the model. */
  async check(): Promise<void> {
    await this.connection.checkModel(this.model, this.checkTimeoutMs);
  }

  private async embed(input: string[]): Promise<number[][]> {
    // An empty input is rejected by some models; a blank one embeds as "nothing" the same way.
    const safe = input.map((t) => (t.trim().length === 0 ? ' ' : t));
    const response = await this.connection.request('embedding', this.model, (client) =>
      client.embed({ model: this.model, input: safe, ...(this.keepAlive !== undefined ? { keep_alive: this.keepAlive } : {}) }),
    );
    const embeddings = response?.embeddings;
    const malformed = (why: string) =>
      new UpstreamUnavailableError(OLLAMA_DEPENDENCY, `Ollama at ${this.connection.host} returned unusable embeddings (${why})`);
    if (!Array.isArray(embeddings) || embeddings.length !== input.length) {
      throw malformed(`${Array.isArray(embeddings) ? embeddings.length : 'no'} vectors for ${input.length} texts`);
    }
    const dims = embeddings[0]?.length ?? 0;
    for (const vector of embeddings) {
      if (!Array.isArray(vector) || vector.length === 0 || vector.length !== dims || !vector.every(Number.isFinite)) {
        throw malformed('vectors of differing length or non-numeric values');
      }
    }
    return embeddings;
  }
}
