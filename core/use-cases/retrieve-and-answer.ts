import type { Embedder } from '../ports/embedder.js';
import type { GroundedAnswer, GroundedAnswerer, GroundedQuestion } from '../ports/grounded-answerer.js';
import type { HitReranker } from '../ports/hit-reranker.js';
import type { Source } from '../domain/model.js';
import type { Answer, AnswerRequest, Llm } from '../ports/llm.js';
import type { QueryPlanner } from '../ports/query-planner.js';
import type { ChunkHit, DocumentTerms, DocumentTermsQuery, IndexQuery, VectorIndex } from '../ports/vector-index.js';
import { packContexts, toSources, type PackedContext } from '../rag/context.js';
import { documentPrior, fileNameWords, focusDocuments, referredPrior, withFileNameColumns } from '../rag/document-prior.js';
import { followUpNames, followUpQuestion, referredDocuments } from '../rag/follow-up.js';
import { documentsNamedBy, titleLine } from '../rag/named-documents.js';
import { reciprocalRankFusion, withPinned } from '../rag/fusion.js';
import { SEMANTIC_SEARCH_UNAVAILABLE_NOTE } from '../rag/answer-notes.js';
import { kindsHeld, servesHeldKind } from '../rag/document-kinds.js';
import { UpstreamUnavailableError } from '../domain/errors.js';
import { rerank, RERANK_POOL } from '../rag/rerank.js';

export interface RetrievalSettings {
  /** Hits asked of each index before fusion. */
  candidates: number;
  /** Passages given to the answerer. */
  passages: number;
  /** Character budget of those passages (fits the model's context). */
  contextChars: number;
  /**
   * Recent messages given as history: enough for a run of follow-ups ("What about Contoso?", "And in 2018?", "And the
   * year before?") to still see the question that named their subject.
   */
  historyMessages: number;
  /** Sources returned with the answer. */
  sources: number;
}

export const DEFAULT_RETRIEVAL: RetrievalSettings = {
  candidates: 20,
  passages: 6,
  contextChars: 12_000,
  historyMessages: 20,
  sources: 5,
};

/**
 * The most documents whose opening is pinned because the question names them but none of their words
 * (unmatchedOpenings), or asks about them as a whole (QueryPlanner.wholeDocuments).
 */
const MAX_OPENINGS = 3;
/** A question about the document itself: its table, chart or page (English, as the answerer's own wording). */
const ABOUT_ITSELF = /\bthe\s+(?:table|chart|page|document)\b/i;
/** The opening passages such a question is answered from. */
const ITSELF_CHUNKS = 3;

/** The most documents whose title a follow-up's names are looked for in (their opening chunks are read). */
const MAX_TITLED_DOCUMENTS = 100;

/** The most hits asked of one index when chunks of unfinished or failed jobs crowd out the visible ones. */
const MAX_CANDIDATES = 1000;

export interface RetrievalDeps {
  indexes: VectorIndex[];
  llm: Llm;
  embedder?: Embedder;
  /** Re-orders the lexical hits; by default core/rag/rerank.ts on this thread. */
  reranker?: HitReranker;
  /** Knowledge of kinds of documents, asked in order (core/ports/query-planner.ts); none by default. */
  planners?: QueryPlanner[];
  settings?: Partial<RetrievalSettings>;
}

/** A question's retrieval, packed for the answerer. */
export interface Retrieved {
  request: AnswerRequest;
  packed: PackedContext;
  query: string;
  /** A line for under the answer on what retrieval had to do without (the semantic search), if anything. */
  note?: string;
  /** The planners that changed a search (reworded it, pinned or added passages), by name. */
  plugins: string[];
}

/**
 * The searches of a question and its passages (the rewrite for retrieval, each index's hits among citable chunks, the
 * lexical hits re-ranked, planners' pinned hits, fusion, packing), then, as a GroundedAnswerer, the answer from them.
 * AskQuestion runs it on the request thread; adapters/answer-pool runs the same class on a worker thread.
 */
export class RetrieveAndAnswer implements GroundedAnswerer {
  readonly settings: RetrievalSettings;
  private readonly reranker: HitReranker;

  constructor(private readonly deps: RetrievalDeps) {
    this.settings = { ...DEFAULT_RETRIEVAL, ...deps.settings };
    this.reranker = deps.reranker ?? { rerank: async (query, hits, options) => rerank(query, hits, undefined, options?.documentPrior) };
  }

  async answer(question: GroundedQuestion, signal?: AbortSignal): Promise<GroundedAnswer> {
    const retrieved = await this.retrieve(question, signal);
    signal?.throwIfAborted();
    const answer = await this.deps.llm.answer(retrieved.request);
    const plugins = [...new Set([...retrieved.plugins, ...(answer.skills ?? [])])];
    return { answer, sources: this.sourcesOf(retrieved, answer), ...(retrieved.note && { note: retrieved.note }), plugins };
  }

  /** The sources shown with `answer`: none when it used no passage. */
  sourcesOf(retrieved: { packed: PackedContext; query: string }, answer: Answer): Source[] {
    return answer.usedRefs.length > 0 ? toSources(retrieved.packed, answer, this.settings.sources, retrieved.query) : [];
  }

  async retrieve(input: GroundedQuestion, signal?: AbortSignal): Promise<Retrieved> {
    const { indexes, llm, embedder } = this.deps;
    const { question, history, filters, sessionId } = input;
    const visible = new Set(input.visibleJobIds);
    // A follow-up ("And in 2018?") searched as the question it stands for: a model's rewrite, else core's rules.
    // A model that does not answer rewrites nothing: core's rules do (and the answer itself tells if it is still down).
    const rewritten = history.length > 0 && llm.rewriteQuestion ? await whenAvailable(llm.rewriteQuestion(question, history)) : undefined;
    const query = history.length === 0 ? question : rewritten ?? followUpQuestion(question, history);
    // The semantic search is the dense index and the model that embeds the question: without either, the lexical
    // index answers alone and the answer says so; the lexical index itself has no stand-in.
    let semanticDown = false;
    const semantic = <T>(work: Promise<T>, instead: T): Promise<T> => whenAvailable(work).then((value) => {
      if (value !== undefined) return value;
      semanticDown = true;
      return instead;
    });
    const embedding = embedder ? await semantic(embedder.embedQuery(query), undefined) : undefined;
    // Knowledge of a kind of document takes part only where the documents asked of hold that kind (a receipt's
    // "total" means nothing of a lease); those the question names, once known, narrow it further below.
    const planners = (this.deps.planners ?? []).filter((planner) => servesHeldKind(planner.kinds, kindsHeld(input.kinds)));
    const tookPart = new Set<string>();
    // Lexical indexes match words: planners may give them the question in the documents' wording.
    const lexicalText = planners.reduce((text, planner) => {
      const worded = planner.lexicalQuery(text);
      // Told apart by words: a planner may lower-case the question or space it otherwise, which changes no search.
      if (wordsOf(worded) !== wordsOf(text)) tookPart.add(planner.name);
      return worded;
    }, query);
    // With several documents, the ones the question's words point to are searched on their own too, and their hits
    // weigh more in re-ranking; planners search only them (a figure's line is the named company's). Counted while the
    // usual searches run (on PostgreSQL each is a query of its own, as long as a search on a large session).
    // Of a follow-up: the documents it names ("What about Contoso?"), else those the answer before quoted.
    const focusing = this.followUpDocuments(question, history, visible, input.filenames, { sessionId, filters })
      .then((referred) => this.documentFocus({ sessionId, text: query, filters }, visible, input.filenames, referred));
    focusing.catch(() => {}); // awaited below; a failure must not go unhandled if a search fails first
    const focusedHits: ChunkHit[] = [];
    const lists = await Promise.all(
      indexes
        .filter((index) => index.kind === 'lexical' || embedding)
        .map(async (index) => {
          const search = { sessionId, text: index.kind === 'lexical' ? lexicalText : query, embedding, filters };
          if (index.kind !== 'lexical') return semantic(this.searchVisible(index, { ...search, limit: this.settings.candidates }, visible), []);
          const limit = Math.max(RERANK_POOL, this.settings.candidates);
          const [all, { prior, focus }] = await Promise.all([this.searchVisible(index, { ...search, limit }, visible), focusing]);
          const focused = focus ? await this.searchVisible(index, { ...search, jobIds: focus, limit }, visible) : [];
          focusedHits.push(...focused);
          // A chunk both searches found keeps the usual search's score: an index may weigh words over the searched
          // documents only (PostgreSQL), and the focused search's scores are then on another scale.
          const found = new Set(all.map((hit) => hit.chunk.id));
          const pool = [...all, ...focused.filter((hit) => !found.has(hit.chunk.id))];
          return (await this.reranker.rerank(lexicalText, pool, { signal, documentPrior: prior })).slice(0, this.settings.candidates);
        }),
    );
    const { focus } = await focusing;
    // Lexical hits above: a wider pool re-ranked (core/rag/rerank.ts), then the usual number. Planners' own searches
    // (e.g. each line of a figure to compute) pin their best hit among the passages.
    const lexical = indexes.filter((index) => index.kind === 'lexical');
    // A search within the documents the question points to runs for a planner serving their kinds (a receipt's total
    // line is no answer about the lease asked of); a search of every document (each receipt's total, perDocument) for
    // one serving a kind the documents asked of hold, within the documents of its kinds.
    const focusHeld = focus ? kindsHeld(input.kinds, focus) : kindsHeld(input.kinds);
    const serving = planners.filter((planner) => servesHeldKind(planner.kinds, focusHeld));
    const searches = planners.flatMap((planner) => {
      const own = planner.pinnedSearches(query)
        .filter((search) => (focus || !search.focusedOnly) && (search.perDocument || serving.includes(planner)))
        .map((search) => ({ search, jobIds: search.perDocument ? documentsOfKinds(input.kinds, planner.kinds) : focus }))
        .filter(({ jobIds }) => !jobIds || jobIds.length > 0);
      if (own.length > 0) tookPart.add(planner.name);
      return own;
    });
    const pinnedHits = await Promise.all(searches.flatMap(({ search, jobIds }) => lexical.map(async (index) => {
      const hits = await this.searchVisible(index, { sessionId, text: search.text, filters, jobIds, limit: search.limit }, visible);
      return firstOf(search.holding(hits), search.perDocument);
    })));
    // The answerer's skills serve the kinds of the documents asked about, and of those each-document searches pinned.
    const pinnedDocuments = pinnedHits.flat().map((hit) => hit.chunk.jobId);
    const held = focus ? kindsHeld(input.kinds, [...focus, ...pinnedDocuments]) : kindsHeld(input.kinds);
    const openings = await this.unmatchedOpenings(focus, focusedHits, { sessionId, filters }, visible);
    // A question about the named documents as a whole (what a receipt lists): their opening chunks, all of their lines.
    const whole = Math.max(0, ...serving.map((planner) => {
      const chunks = planner.wholeDocuments?.(query) ?? 0;
      if (chunks > 0 && focus) tookPart.add(planner.name);
      return chunks;
    }));
    const wholes = whole > 0 && focus ? await this.openingChunks(focus, whole, { sessionId, filters }, visible) : [];
    let fused = withPinned([...pinnedHits.flat(), ...openings, ...wholes], reciprocalRankFusion(lists, this.settings.candidates), this.settings.candidates);
    // A question about the document's own table or page ("Which years does the table show?") names nothing a search
    // matches: of one document, its opening passages, where such a page begins.
    if (fused.length === 0 && visible.size === 1 && ABOUT_ITSELF.test(query)) fused = await this.openingChunks([...visible], ITSELF_CHUNKS, { sessionId, filters }, visible);
    const packed = packContexts(fused, this.settings.passages, this.settings.contextChars, input.units);
    const note = semanticDown ? SEMANTIC_SEARCH_UNAVAILABLE_NOTE : undefined;
    const request = { question, contexts: packed.passages, history, ...(held && { kinds: [...held].sort() }) };
    return { request, packed, query, ...(note && { note }), plugins: [...tookPart] };
  }

  /**
   * How much the question points to each citable document (core/rag/document-prior.ts), from the first lexical index
   * that counts words per document, and the documents it is about (`focus`: none when that is all of them); of a
   * follow-up, the documents it refers to (`referred`: quoted by the answer before). Neither with fewer than two
   * citable documents, or when nothing tells them apart.
   */
  private async documentFocus(
    query: DocumentTermsQuery, visible: Set<string>, filenames?: Record<string, string>, referred: readonly string[] = [],
  ): Promise<{ prior?: Map<string, number>; focus?: string[] }> {
    if (visible.size < 2) return {};
    const index = this.deps.indexes.find((i) => i.kind === 'lexical' && i.documentTerms);
    const counted = (await index?.documentTerms?.(query))?.filter((d) => visible.has(d.jobId));
    const documents = counted && (await this.withFileNames(index!, query, counted, filenames));
    const prior = documents && (referredPrior(documents, referred) ?? documentPrior(documents));
    if (!prior) return {};
    const named = focusDocuments(prior);
    return { prior, focus: named.length < prior.size ? named : undefined };
  }

  /**
   * The documents a follow-up is about: those whose file name or title (its text's first line) holds a name it gives
   * ("What about Contoso?"), else those the latest answer that quoted any quoted ("And the year before?"). None for a
   * question of its own, or with fewer than two documents.
   */
  private async followUpDocuments(
    question: string, history: GroundedQuestion['history'], visible: Set<string>, filenames: Record<string, string> | undefined,
    query: Pick<IndexQuery, 'sessionId' | 'filters'>,
  ): Promise<string[]> {
    const names = visible.size < 2 ? [] : followUpNames(question, history);
    if (names.length === 0) return referredDocuments(question, history);
    const jobIds = [...visible];
    const byFileName = documentsNamedBy(names, jobIds.map((jobId) => ({ jobId, filename: filenames?.[jobId] ?? '' })));
    if (byFileName.length > 0) return byFileName;
    const index = this.deps.indexes.find((i) => i.kind === 'lexical');
    const openings = index ? await index.leadingChunks({ ...query, jobIds: jobIds.slice(0, MAX_TITLED_DOCUMENTS), perJob: 1 }) : [];
    return documentsNamedBy(names, openings.map((chunk) => ({ jobId: chunk.jobId, filename: chunk.filename, title: titleLine(chunk.text) })));
  }

  /**
   * The opening chunk of each document the question is about (its focus) that the focused search found nothing of: a
   * document named by its file name alone ("What did I buy at Lidl?" of a receipt whose OCR reads the shop as "LDL")
   * holds none of the question's words, and would otherwise bring no passage at all. At most MAX_OPENINGS.
   */
  private async unmatchedOpenings(
    focus: string[] | undefined, found: ChunkHit[], query: Pick<IndexQuery, 'sessionId' | 'filters'>, visible: Set<string>,
  ): Promise<ChunkHit[]> {
    return this.openingChunks((focus ?? []).filter((jobId) => !found.some((hit) => hit.chunk.jobId === jobId)), 1, query, visible);
  }

  /** The first `perJob` chunks of each of the first MAX_OPENINGS visible documents given, in that order. */
  private async openingChunks(
    documents: string[], perJob: number, query: Pick<IndexQuery, 'sessionId' | 'filters'>, visible: Set<string>,
  ): Promise<ChunkHit[]> {
    const jobIds = documents.filter((jobId) => visible.has(jobId)).slice(0, MAX_OPENINGS);
    const index = this.deps.indexes.find((i) => i.kind === 'lexical');
    if (jobIds.length === 0 || !index) return [];
    // Only these documents' openings are read, however many the session holds; in the given order.
    const chunks = await index.leadingChunks({ sessionId: query.sessionId, filters: query.filters, jobIds, perJob });
    return jobIds.flatMap((jobId) => chunks.filter((chunk) => chunk.jobId === jobId)).map((chunk) => ({ chunk, score: 0 }));
  }

  /**
   * The counts with the question's file-name words (core/rag/document-prior.ts) that no document's text holds: the
   * text's own counts already weigh the others, and a word in both would count twice for its document.
   */
  private async withFileNames(index: VectorIndex, query: DocumentTermsQuery, documents: DocumentTerms[], filenames?: Record<string, string>): Promise<DocumentTerms[]> {
    const words = fileNameWords(query.text, documents, filenames);
    const unwritten = await Promise.all(words.map(async ({ word }) =>
      ((await index.documentTerms?.({ ...query, text: word })) ?? []).every((d) => d.holding.every((n) => n === 0))));
    return withFileNameColumns(documents, words.filter((_, i) => unwritten[i]));
  }

  /**
   * The index's best `query.limit` hits among citable chunks. When some were dropped, asks again for more (up to
   * MAX_CANDIDATES), so a large unfinished document does not starve the answer. When nothing is hidden, this is one
   * search with the usual limit.
   */
  private async searchVisible(index: VectorIndex, query: IndexQuery, visible: Set<string>): Promise<ChunkHit[]> {
    for (let limit = query.limit; ; limit *= 4) {
      const hits = await index.search({ ...query, limit });
      const kept = hits.filter((hit) => visible.has(hit.chunk.jobId));
      if (kept.length >= query.limit || hits.length < limit || limit >= MAX_CANDIDATES) return kept.slice(0, query.limit);
    }
  }
}

/** What `work` resolves to, or undefined when it failed because a dependency did not answer; other failures stand. */
async function whenAvailable<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof UpstreamUnavailableError) return undefined;
    throw error;
  }
}

/** The documents (of `kinds`, by job id) of a kind `served` names or of none told; undefined when either is not known. */
function documentsOfKinds(kinds: Record<string, string | null> | undefined, served: readonly string[] | undefined): string[] | undefined {
  if (!kinds || !served) return undefined;
  return Object.entries(kinds).filter(([, kind]) => kind === null || served.includes(kind)).map(([jobId]) => jobId);
}

/** A text's words, lower-cased, in order: what a lexical search matches. */
function wordsOf(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

/** The hit to pin of a planner's search: the first, or with `perDocument`, the first of each of that many documents. */
function firstOf(hits: ChunkHit[], perDocument = 1): ChunkHit[] {
  const byDocument = new Map<string, ChunkHit>();
  for (const hit of hits) if (!byDocument.has(hit.chunk.jobId)) byDocument.set(hit.chunk.jobId, hit);
  return [...byDocument.values()].slice(0, perDocument);
}
