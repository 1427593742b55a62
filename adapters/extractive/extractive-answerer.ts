import {
  contentTokens, countWords, echoesHeading, fileNameTerms, followUpQuestion, isIndexEntry, isNotFoundAnswer, MONTH_NAME, namedColumns, NOT_FOUND_ANSWER, runTogetherInFileName,
  servesHeldKind, splitUnits, termKey, withoutLeaders, wordTokens, YEAR, type Answer, type AnswerRequest, type AnswerSkill, type ContextPassage, type Llm, type UnitKind,
} from '../../core/index.js';
import { isRequestWord, overviewAnswer } from '../../core/rag/overview.js';
import { passagePlace } from '../../core/rag/place.js';
import { absentNames, absentYears, bareWord, nearSpelling, notFoundNote, questionNames } from './absent-names.js';
import { asClosestFound, closestNote, isFrameWord, MIN_SUBJECT_SUPPORT, minSubjectSupport, subjectSupport } from './answer-support.js';
import { asksForExplanation, proseFirst } from './explanation.js';
import { definingFirst } from './definition.js';
import { statedInProse } from './stated-in-prose.js';
import { asWrittenInPassages } from './passage-wording.js';
import { tableAnswerRead, withAlsoFound } from './table-answer.js';
import { ownQuestion, plainQuestion } from './question-wording.js';
import { bestRow, cellForYear, columnHeaderOf, figureForNamedColumn, figureForTotal, figureForYear, sameItemElsewhere } from './table-rows.js';
export const MAX_ANSWER_WORDS = 80;
const MAX_SENTENCES = 4;
/** A sentence cut shorter than this says too little to be worth quoting. */
const MIN_EXCERPT_WORDS = 12;
/** Below this share of the question found in any one sentence, the documents are taken not to hold the answer. */
const MIN_COVERAGE = 0.2;
/**
 * Below this share of the question's weight, counting the words no sentence holds, the answer says it may not answer.
 * Chosen on the SQuAD training articles (BENCH_SQUAD=train): at 0.2, 339 more of 3,351 questions asked of the wrong
 * articles say so, and 23 more asked of all; at 0.3, 1,117 and 179, and 5 of FinanceBench's 19 tune questions asked of
 * their own filing.
 */
const MIN_HELD_COVERAGE = 0.2;

export interface Candidate {
  passage: ContextPassage;
  /** Rank of the passage in retrieval order, from 0. */
  rank: number;
  /** Position of the sentence within its passage. */
  position: number;
  /** A sentence of prose, or a table row, column header or heading kept as its own line (core/rag/layout.ts). */
  kind: UnitKind;
  text: string;
  words: number;
  /** How likely the sentence holds the answer, relative to the other candidates (higher is likelier). */
  score: number;
  /** Share of the question's IDF weight the sentence covers. */
  coverage: number;
  features: number[];
}

/**
 * The embedded answerer: no model, it quotes the one to four sentences of the retrieved passages most likely to hold
 * the answer (at most 80 words), naming file and page. Each sentence is described by lexical features (the question's
 * stemmed terms it and its neighbours hold, phrases, names, the kind of answer asked for, its passage's retrieval
 * rank and score) and ranked by a weighted sum of them (SENTENCE_WEIGHTS, fitted on SQuAD). Skills of a kind of
 * document (core/ports/answer-skill.ts, e.g. adapters/financial-statements) may answer first or name a table row.
 */
export class ExtractiveAnswerer implements Llm {
  /**
   * `weights`: one per SENTENCE_FEATURES entry (other weights are for fitting and comparing them); `skills`: asked in
   * order, the first to answer wins.
   */
  constructor(
    private readonly weights: readonly number[] = SENTENCE_WEIGHTS,
    private readonly skills: readonly AnswerSkill[] = [],
  ) {}

  async answer(asked: AnswerRequest): Promise<Answer> {
    // A follow-up ("What was its net income?") is answered as the question it stands for, as retrieval searched it.
    // And with its compounds as the passages write them ("Linn sequencer" of a brochure's "LinnSequencer").
    // In plain words: contractions written out, words pointing at the documents ("According to the table, …") left out.
    const request = asked.overview ? asked : { ...asked, question: asWrittenInPassages(followUpQuestion(plainQuestion(asked.question), asked.history), asked.contexts) };
    // A skill's own answer (a figure computed from the table rows it needs; "What is on the Lidl receipt?", an
    // overview of one receipt, its item lines) comes first.
    // Only skills of a kind the documents asked of hold take part (all of them when the kinds are not known).
    const skills = this.skills.filter((skill) => servesHeldKind(skill.kinds, request.kinds && new Set(request.kinds)));
    // A figure computed from the cells of the row the question names (rows × columns, any kind of document) comes
    // before a skill's own reading: the skill's vocabulary may pick another row ("receivables" for "Other receivables").
    const table = asked.overview ? undefined : tableAnswerRead(request);
    const computed = table?.computed ? supported(request, table.answer, table.read) : undefined;
    if (computed && !isNotFoundAnswer(computed.text)) return withAlsoFound(computed, this.quoteAnswer(request, skills));
    for (const skill of skills) {
      const answer = skill.answer(request);
      if (answer) return { ...answer, skills: [skill.name] };
    }
    // "What is this document about?": the documents' lead and central sentences, not a search for those words.
    if (asked.overview) {
      const told = new Set<string>();
      const overview = overviewAnswer(asked.contexts, (passages) => skills.reduce<Answer | undefined>((found, skill) => {
        const part = found ?? skill.documentOverview?.(passages);
        if (!found && part) told.add(skill.name);
        return part;
      }, undefined));
      return told.size > 0 ? { ...overview, skills: [...told] } : overview;
    }
    // A figure the passages' tables print, or one computed from their cells, with the rows it came from; what the
    // sentences say of it follows, as also found (the prose may qualify a figure the table prints).
    // Each only where the passage it leads with is about the question's subject (answer-support.ts).
    // A sentence that names the figure asked more fully than the row read ("Blizzard in-game net bookings" against the
    // row "In-game net bookings") states it: the sentence answers (stated-in-prose.ts).
    const prose = table?.lookup ? statedInProse(request, ownQuestion(request.question), table.named, table.passage) : undefined;
    const fromTable = prose ? undefined : supported(request, table?.answer, table?.read);
    const quoted = this.quoteAnswer(request, skills, prose);
    return fromTable && !isNotFoundAnswer(fromTable.text) ? withAlsoFound(fromTable, quoted) : quoted;
  }

  /** The sentences (or a table row a skill names) that most likely answer, quoted with their sources. */
  private quoteAnswer(request: AnswerRequest, skills: readonly AnswerSkill[], stated?: string): Answer {
    const all = this.scoredCandidates(request, this.weights);
    const queryTerms = new Set(stems(contentTokens(request.question)));
    const explains = asksForExplanation(request.question);
    // A figure question is answered by the table row naming it, quoted under its column header.
    const naming = explains || stated ? undefined : skills.map((skill) => ({ skill, figure: skill.tableFigure(request.question) })).find(({ figure }) => figure !== undefined);
    const figure = naming?.figure;
    const rowNamed = figure ? bestRow(all, figure.wording, questionNames(request.question)) : undefined;
    // A row the skill named in the question's own words (no rewording of its) must be about the question's subject, as
    // its page's passages say it ("Operating expenses" is no row for "depreciation expense"): else the sentences answer.
    const ownWording = figure !== undefined && stems(contentTokens(figure.wording)).every((t) => queryTerms.has(t));
    const named = rowNamed && ownWording && subjectSupport(request.question, onItsPage(rowNamed.passage, request.contexts), request.contexts, { phrases: false }).share < MIN_SUBJECT_SUPPORT.table ? undefined : rowNamed;
    // Unless a sentence names the figure more fully than the row (stated-in-prose.ts): the sentence leads.
    const inProse = stated ?? (named ? statedInProse(request, ownQuestion(request.question), `${named.text} ${columnHeaderOf(named, all) ?? ''}`, named.passage) : undefined);
    const matched = inProse ? undefined : named;
    const asked = (c: Candidate) => new Set(stems(wordTokens(c.text)).filter((t) => queryTerms.has(t)));
    // "What does the table show?": the sentence that announces a table (ending on a colon above its rows) says it.
    const announcing = ASKS_WHAT_TABLE_SHOWS.test(request.question) ? all.find((c) => announcedTable(c, all, MAX_ANSWER_WORDS).length > 0) : undefined;
    const ranked = announcing ? [announcing, ...rankedOf(all).filter((c) => c !== announcing)]
      : inProse ? statingFirst(rankedOf(all), inProse) : definingFirst(explains ? proseFirst(rankedOf(all), asked) : rankedOf(all, asksForContents(request.question)), request.question);
    const best = ranked[0];
    // Too weak a match is no answer: better to say so than to quote something unrelated.
    const coverage = announcing ? 1 : Math.max(...ranked.map((c) => c.coverage));
    if (!best || coverage < MIN_COVERAGE) return notFound();

    // The same line item in other tables (a report's segments): the one whose name the question says, else each.
    const alike = matched ? sameItemElsewhere(matched, all) : [];
    const namedTable = alike.find(({ table }) => stems(wordTokens(table)).some((t) => queryTerms.has(t)));
    const row = namedTable?.row ?? alike[0]?.row ?? matched;
    const others = namedTable ? [] : alike.slice(1).map(({ row: r, table }) => ({ ...r, text: `${table} … ${r.text}`, words: countWords(table) + countWords(r.text) }));
    const header = row && columnHeaderOf(row, all);
    const first = row ? { ...row, text: header ? `${header} … ${row.text}` : row.text, words: countWords(row.text) + (header ? countWords(header) : 0) } : fitted(best, MAX_ANSWER_WORDS, queryTerms);
    // The figure asked for first: the year's column, or (no year asked) a total column's; of each table's, named.
    const lead = row && (others.length > 0 ? yearFigures(alike, all, figure?.year) : figure?.year === undefined ? figureForNamedColumn(row.text, header, request.question) ?? figureForTotal(row.text, header) : figureForYear(row.text, header, figure.year, yearsIn(request.question)));
    // A question that repeats a section's question-shaped heading ("Who must file …?") is answered by that section.
    const section = row ? undefined : echoedSection(request.question, all);
    // A sentence announcing a table ("… estimates the following costs …:") is followed by the table's lines.
    const announced = row || section ? [] : announcedTable(first, all, MAX_ANSWER_WORDS - first.words);
    const chosen: Candidate[] = section ?? [first, ...announced, ...others];
    let words = chosen.reduce((sum, c) => sum + c.words, 0);
    for (const next of section ? [] : ranked) {
      if (next === best && !row) continue;
      if (row && (next.text === row.text || next.text === header || alike.some((a) => a.row.text === next.text))) continue;
      if (chosen.length >= MAX_SENTENCES || words >= MAX_ANSWER_WORDS - MIN_EXCERPT_WORDS) break;
      if (chosen.some((c) => c.text === next.text)) continue;
      // Fill the 80 words: a runner-up sentence often holds the answer when the best match only restates the question.
      const room = MAX_ANSWER_WORDS - words;
      const piece = fitted(next, room, queryTerms);
      chosen.push(piece);
      words += piece.words;
    }
    // What answers best leads its page's quote (the reader's first words), unless it announces what follows it (":").
    const leading = row ? first : /:$/.test(chosen[0].text) ? undefined : chosen[0];
    const { parts, sources, markers, quotes } = render(chosen, leading);
    // A row a skill named answers in the skill's wording ("COGS": "Total cost of revenue"); any other quote must be
    // about what the question asks.
    const subject = row || announcing ? undefined : subjectSupport(request.question, chosen[0].passage, request.contexts);
    // Coverage is of the terms some sentence holds: when the words no sentence holds weigh most, the quote may not
    // answer, and says so (a figure's row answers whatever the question's wording).
    const unheld = row ? undefined : unheldWords(request.question, all);
    const absent = announcing ? undefined : absentNames(request.question, request.contexts) ?? absentYears(request.question, request.contexts) ??
      (unheld && coverage * (1 - unheld.share) < MIN_HELD_COVERAGE ? unheld.words : undefined);
    // Only what the text quotes is cited: a sentence chosen but left out of the 80 words is not. A weak match is no
    // answer: it says so first and shows what came closest, as closest, not as an answer.
    const fromRows = chosen[0].kind === 'row' || chosen[0].kind === 'columns';
    const unsupported = !absent && subject !== undefined && subject.share < minSubjectSupport(fromRows, all.some((c) => c.kind === 'row'));
    const text = absent || unsupported
      ? `${absent ? notFoundNote(absent) : closestNote(subject!.missing)}\n\nClosest found: ${parts.join(' ')}`
      : `${lead ? `${lead}\n\n` : ''}${parts[0]}${parts.length > 1 ? `\n\nAlso found: ${parts.slice(1).join(' ')}` : ''}`;
    return { text: `${text}\n\nSources: ${sources}`, usedRefs: Object.keys(markers), markers, quotes, ...(row && naming && { skills: [naming.skill.name] }) };
  }

  /** The passages' sentences that match the question (or follow one that does), most likely answer first. */
  rankSentences(request: AnswerRequest, weights: readonly number[] = this.weights): Candidate[] {
    return rankedOf(this.scoredCandidates(request, weights), asksForContents(request.question));
  }

  /** Every sentence, row and heading of the passages, with its features and score. */
  private scoredCandidates(request: AnswerRequest, weights: readonly number[]): Candidate[] {
    if (contentTokens(request.question).length === 0 || request.contexts.length === 0) return [];
    const candidates = request.contexts.flatMap((passage, rank) =>
      splitUnits(passage.text).map(({ kind, text: line }, position): Candidate => {
        // A price list's row is quoted without the dot leaders between its cells.
        const text = kind === 'row' ? withoutLeaders(line) : line;
        return { passage, rank, position, kind, text, words: countWords(text), score: 0, coverage: 0, features: [] };
      }),
    );
    const idf = inverseFrequencies(candidates.map((c) => new Set(stems(wordTokens(c.text)))));
    const features = sentenceFeatures(candidates, request.question, idf);
    candidates.forEach((candidate, i) => {
      candidate.features = features[i];
      candidate.coverage = features[i][0];
      candidate.score = weightedSum(features[i], weights);
    });
    return candidates;
  }
}

/**
 * The heading the question echoes (core/rag/question-headings.ts) in the best-ranked passage that has one, with the
 * sentences and rows under it up to the next heading, within MAX_ANSWER_WORDS; undefined when none, or no sentence follows it.
 */
function echoedSection(question: string, candidates: Candidate[]): Candidate[] | undefined {
  const heading = candidates
    .filter((c) => c.kind === 'heading' && echoesHeading(question, c.text))
    .sort((a, b) => a.rank - b.rank || a.position - b.position)[0];
  if (!heading) return undefined;
  const section = [heading];
  let words = heading.words;
  for (const c of candidates) {
    if (c.passage !== heading.passage || c.position <= heading.position) continue;
    // Heading-like lines right under it are its own (a sub-heading, a wrapped title-case line of its first sentence).
    if ((c.kind === 'heading' && section.some((s) => s.kind !== 'heading')) || words >= MAX_ANSWER_WORDS - MIN_EXCERPT_WORDS) break;
    const piece = fitted(c, MAX_ANSWER_WORDS - words, new Set());
    section.push(piece);
    words += piece.words;
  }
  return section.some((c) => c.kind !== 'heading') ? section : undefined;
}

/**
 * The candidates that match the question (or follow one that does), best first; an index's or a table of contents'
 * entries ("6 Late filing . . . . 31") only when nothing else matches, or when the question asks for them ("What
 * chapters does the book have?"): they hold a question's words, not its answer.
 */
function rankedOf(candidates: Candidate[], entriesAsked = false): Candidate[] {
  const matching = candidates.filter((c) => c.coverage > 0 || c.features[1] > 0);
  const content = entriesAsked ? matching : matching.filter((c) => !isIndexEntry(c.text));
  // Equal scores: the shorter sentence, which says the same with less noise.
  return (content.some((c) => c.coverage > 0) ? content : matching).sort((a, b) => b.score - a.score || a.words - b.words);
}

/** What a document's parts are called when a question asks which it has ("the table of contents", "its chapters"). */
const CONTENTS_WORDS = /\b(?:contents|chapters|sections|headings|outline)\b/i;

/** "What does the table show?", "What information does the table present?" (English, as the rest of the wording). */
const ASKS_WHAT_TABLE_SHOWS = /\bwhat\s+(?:\w+\s+){0,2}(?:does|do)\s+the\s+tables?\s+(?:show|present|display|represent|provide|summari[sz]e|contain)\b/i;

function asksForContents(question: string): boolean {
  return CONTENTS_WORDS.test(question);
}

/**
 * The answer as it is when the passage it leads with holds enough of the question's subject; else a "not found" that
 * shows it as what came closest (answer-support.ts).
 */
function supported(request: AnswerRequest, answer: Answer | undefined, read?: ContextPassage): Answer | undefined {
  if (!answer || answer.usedRefs.length === 0) return answer;
  const leadRef = Object.entries(answer.markers ?? {}).find(([, n]) => n === 1)?.[0] ?? answer.usedRefs[0];
  // A table split over passages is about what all its parts name, the rows read in each.
  const passage = read ?? request.contexts.find((p) => p.ref === leadRef);
  if (!passage) return answer;
  // The question's own words, not its preamble's ("We need to calculate a metric …: what is …?"), as the table read it.
  const support = subjectSupport(ownQuestion(request.question), passage, request.contexts, { phrases: false });
  // Nor is a figure read for a year no passage holds: it is another year's.
  const years = absentYears(ownQuestion(request.question), request.contexts);
  if (years) return asClosestFound(answer, years);
  return support.share < MIN_SUBJECT_SUPPORT.table ? asClosestFound(answer, support.missing) : answer;
}

/** The passage with the other passages found on its page (a table's subject is often the page's prose or title). */
function onItsPage(passage: ContextPassage, contexts: readonly ContextPassage[]): ContextPassage {
  const page = contexts.filter((p) => p.filename === passage.filename && p.page === passage.page);
  return { ...passage, text: page.map((p) => p.text).join('\n') };
}

function notFound(): Answer {
  return { text: NOT_FOUND_ANSWER, usedRefs: [] };
}

function stems(tokens: string[]): string[] {
  return tokens.map(termKey);
}

/**
 * The question's words that no candidate holds (nor its passage's file name), nor a near spelling of, as the question
 * writes them, and their share of its IDF weight (a word no sentence holds weighs as much as the rarest can). Asked
 * "Who is the company's CEO?" of passages that never write "CEO", a sentence naming the company covers every term the
 * passages hold, yet not what was asked. Names the passages lack are absentNames' to tell, and weigh nothing here.
 */
function unheldWords(question: string, candidates: Candidate[]): { words: string[]; share: number } {
  const sets = candidates.map((c) => new Set(stems(wordTokens(c.text))));
  const idf = inverseFrequencies(sets);
  // A passage's file name holds words too ("Who wrote the latex document?" of latex-multicolumn.pdf).
  const filenames = new Set(candidates.map((c) => c.passage.filename));
  const named = [...filenames].flatMap((filename) => [...fileNameTerms(filename), ...runTogetherInFileName(question, filename).map(termKey)]);
  const held = new Set([...sets.flatMap((set) => [...set]), ...named]);
  const vocabulary = [...new Set(candidates.flatMap((c) => wordTokens(c.text)))];
  const unheldWeight = Math.log(1 + (sets.length + 0.5) / 0.5);
  const names = new Set(questionNames(question).flatMap((name) => contentTokens(name)));
  const written = question.split(/\s+/).map(bareWord);
  const words: string[] = [];
  let total = 0;
  let unheld = 0;
  for (const [key, token] of new Map(contentTokens(question).map((t) => [termKey(t), t] as const))) {
    // "What are the main risks?": "main" shapes the request, "higher" or "2019" what to compare; a passage need not hold them.
    if (isFrameWord(token)) continue;
    if (held.has(key) || vocabulary.some((word) => nearSpelling(token, word))) total += idf.get(key) ?? 0;
    else if (!names.has(token)) {
      total += unheldWeight;
      unheld += unheldWeight;
      words.push(written.find((w) => w.toLowerCase() === token) ?? token);
    }
  }
  return { words, share: total > 0 ? unheld / total : 0 };
}

/** IDF over the candidate sentences: words present everywhere in the retrieved text say little. */
function inverseFrequencies(sentences: Set<string>[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const terms of sentences) for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  const n = sentences.length;
  const idf = new Map<string, number>();
  for (const [term, count] of df) idf.set(term, Math.log(1 + (n - count + 0.5) / (count + 0.5)));
  return idf;
}

/**
 * What the ranking looks at for one sentence. Each value is in 0..1, so the weights below compare.
 * Order matters: SENTENCE_WEIGHTS holds one weight per feature in this order.
 */
export const SENTENCE_FEATURES = [
  'coverage', // share of the question's IDF weight present in the sentence
  'previousCoverage', // share present only in the sentence before (it often names the subject)
  'nextCoverage', // share present only in the sentence after
  'termShare', // share of the distinct question terms present (unweighted)
  'phrase', // share of consecutive question-term pairs that also stand together in the sentence
  'proximity', // how tightly the matched words sit together
  'novelty', // share of the sentence's content words the question does not use: an answer adds something
  'answerType', // holds the kind of answer asked for (a number for "how many", a date for "when", a name for "who")
  'rankPrior', // 1 / (1 + passage rank)
  'passageScore', // the passage's retrieval score relative to the best passage
  'bestInPassage', // the best-covering sentence of its passage
  'passageTerms', // share of the distinct question terms present anywhere in the passage (is it on topic?)
  'names', // share of the question's names (capitalised words past its first) present in the sentence
  'passageNames', // share of those names present anywhere in the passage
  'topPassage', // from the best retrieved passage
  'coveredAndRelevant', // coverage times passageScore: a good match in a good passage
  'continues', // opens with a pronoun ("It was re-established in 1991"): continues the sentence before
  'shortSentence', // under 5 words (headings, table cells)
  'longSentence', // over 40 words (harder to quote whole)
] as const;

/**
 * One weight per SENTENCE_FEATURES entry: a sentence's score is their weighted sum. Fitted by bench/train-answerer.ts
 * (a softmax over each question's sentences) on the questions of the 16 SQuAD training articles only (SQUAD_SPLIT), so
 * the quality benchmark's figure on the other 8 articles is held out;
 * re-run it after changing a feature, the chunking or the retrieval settings.
 */
export const SENTENCE_WEIGHTS: readonly number[] = [2.86, 2.45, 0.06, 2.13, 1.02, 0.03, -0.75, 2.04, 1.74, 1.91, 0.69, 0.10, -1.00, 1.36, -0.22, 1.80, 0.23, -1.81, 0.07];

/** The feature vector of every candidate (same order as the candidates), for ranking and for fitting the weights. */
export function sentenceFeatures(candidates: Candidate[], question: string, idf: Map<string, number>): number[][] {
  const queryTerms = stems(contentTokens(question));
  const expected = expectedAnswerType(question);
  const names = [...new Set(question.split(/\s+/).slice(1).filter((w) => /^\p{Lu}/u.test(w)).flatMap((w) => stems(contentTokens(w))))];
  const unique = [...new Set(queryTerms)];
  const queryWeight = unique.reduce((sum, t) => sum + (idf.get(t) ?? 0), 0) || 1;
  const pairs = queryTerms.slice(1).flatMap((t, i) => (t === queryTerms[i] ? [] : [`${queryTerms[i]} ${t}`]));
  const topScore = Math.max(...candidates.map((c) => c.passage.score), 1e-9);
  const tokens = candidates.map((c) => stems(wordTokens(c.text)));
  // A question's word that a passage's file name holds is what every sentence of it is about ("Nike" of
  // NIKE_2018_10K.pdf, whose pages say "we"): held by each.
  const named = new Map([...new Set(candidates.map((c) => c.passage.filename))].map((f) => [f, fileNameTerms(f).filter((t) => queryTerms.includes(t))]));
  const sets = tokens.map((t, i) => new Set([...t, ...named.get(candidates[i].passage.filename)!]));
  const coverageOf = (set: Set<string>, exclude?: Set<string>) =>
    unique.reduce((sum, t) => sum + (set.has(t) && !exclude?.has(t) ? idf.get(t) ?? 0 : 0), 0) / queryWeight;
  const coverages = sets.map((set) => coverageOf(set));
  const bestOfPassage = new Map<ContextPassage, number>();
  candidates.forEach((c, i) => bestOfPassage.set(c.passage, Math.max(bestOfPassage.get(c.passage) ?? 0, coverages[i])));
  const asked = new Set(unique);
  const passageTerms = new Map<ContextPassage, Set<string>>();
  candidates.forEach((c, i) => passageTerms.set(c.passage, new Set([...(passageTerms.get(c.passage) ?? []), ...sets[i]])));
  const share = (terms: string[], set: Set<string>) => (terms.length > 0 ? terms.filter((t) => set.has(t)).length / terms.length : 0);
  return candidates.map((c, i) => {
    const samePassage = (j: number) => j >= 0 && j < candidates.length && candidates[j].passage === c.passage;
    const own = sets[i];
    const previous = samePassage(i - 1) ? coverageOf(sets[i - 1], own) : 0;
    const next = samePassage(i + 1) ? coverageOf(sets[i + 1], own) : 0;
    const matchedPositions = tokens[i].map((t, k) => (asked.has(t) ? k : -1)).filter((k) => k >= 0);
    const matchedTerms = new Set([...matchedPositions.map((k) => tokens[i][k]), ...named.get(c.passage.filename)!]);
    const span = matchedPositions.length > 1 ? matchedPositions[matchedPositions.length - 1] - matchedPositions[0] + 1 : 1;
    const joined = ` ${tokens[i].join(' ')} `;
    const phrase = pairs.length > 0 ? pairs.filter((p) => joined.includes(` ${p} `)).length / pairs.length : 0;
    const content = stems(contentTokens(c.text));
    const novelty = content.length > 0 ? content.filter((t) => !asked.has(t)).length / content.length : 0;
    return [
      coverages[i],
      previous,
      next,
      matchedTerms.size / Math.max(1, unique.length),
      phrase,
      matchedTerms.size > 1 ? matchedTerms.size / span : matchedTerms.size,
      novelty,
      answerTypeFits(expected, c.text, queryTerms) ? 1 : 0,
      1 / (1 + c.rank),
      Math.max(0, c.passage.score) / topScore,
      coverages[i] > 0 && coverages[i] === bestOfPassage.get(c.passage) ? 1 : 0,
      share(unique, passageTerms.get(c.passage)!),
      share(names, own),
      share(names, passageTerms.get(c.passage)!),
      c.rank === 0 ? 1 : 0,
      coverages[i] * (Math.max(0, c.passage.score) / topScore),
      /^(it|its|this|these|they|their|he|his|she|her|there)\b/i.test(c.text) ? 1 : 0,
      c.words < 5 ? 1 : 0,
      c.words > 40 ? 1 : 0,
    ];
  });
}

function weightedSum(features: number[], weights: readonly number[]): number {
  return features.reduce((sum, value, i) => sum + value * weights[i], 0);
}

type AnswerType = 'number' | 'time' | 'name' | 'any';

/** What kind of answer a question asks for, from its wh-word: a cheap cue that separates otherwise equal sentences. */
export function expectedAnswerType(question: string): AnswerType {
  const q = question.toLowerCase();
  if (/\b(how (many|much|long|far|old|large|big|tall|high|often)|what (percentage|percent|number|amount))\b/.test(q)) return 'number';
  if (/\b(when|what (year|date|day|month|century|decade|time)|which (year|century|decade))\b/.test(q)) return 'time';
  if (/\b(who|whom|whose)\b/.test(q)) return 'name';
  return 'any';
}

// "May" the month only when capitalised: "may" is most often the verb ("the FAA may amend this AD").
const MONTHS = /\b(january|february|march|april|june|july|august|september|october|november|december|century|decade|spring|summer|autumn|winter)\b/i;
const DAY_OF_MONTH = new RegExp(`\\b${MONTH_NAME}\\s+\\d{1,2}(?:st|nd|rd|th)?\\b|\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_NAME}(?=\\s|,|$)`, 'gi');
const NUMBER_WORDS = /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half)\b/i;

function answerTypeFits(expected: AnswerType, sentence: string, queryTerms: string[]): boolean {
  if (expected === 'any') return false;
  if (expected === 'time') return /\b(1\d{3}|20\d{2})s?\b/.test(sentence) || MONTHS.test(sentence) || /\bMay\b/.test(sentence);
  // Years and the day of a date ("March 23, 2021", "23 March") are no count: "How many employees?" is not answered by
  // a lawsuit's filing date.
  if (expected === 'number') return /\d/.test(sentence.replace(DAY_OF_MONTH, ' ').replace(/\b(1\d{3}|20\d{2})\b/g, '')) || NUMBER_WORDS.test(sentence);
  // A name the question does not already contain (not the sentence's first word, which is capitalised anyway).
  const asked = new Set(queryTerms);
  return sentence
    .split(/\s+/)
    .slice(1)
    .some((w) => /^\p{Lu}\p{Ll}+/u.test(w) && !asked.has(termKey(w.replace(/[^\p{L}]/gu, ''))));
}

/**
 * The lines of the table a sentence ending on a colon announces, as many as fit in `room` words: its title, column
 * header and rows right after the sentence in its passage, up to the next sentence. None when no row follows (a list in
 * another passage is said to go on instead, render's ": …").
 */
function announcedTable(sentence: Candidate, all: Candidate[], room: number): Candidate[] {
  if (sentence.kind !== 'sentence' || !sentence.text.endsWith(':')) return [];
  const after = all.filter((unit) => unit.passage === sentence.passage && unit.position > sentence.position);
  const lines: Candidate[] = [];
  let words = 0;
  for (const [i, unit] of after.entries()) {
    // Prose ends the table, but for a header of names just above its first row ("Action Labor cost Parts cost …").
    const header = unit.kind === 'sentence' && after[i + 1]?.kind === 'row' && namedColumns([unit], after[i + 1].text) !== undefined;
    if ((unit.kind === 'sentence' && !header) || (unit.kind === 'heading' && lines.some((line) => line.kind !== 'heading')) || words + unit.words > room) break;
    lines.push(unit);
    words += unit.words;
  }
  return lines.some((line) => line.kind === 'row') ? lines : [];
}

/** "2017: 52,810 (Domestic Streaming Segment), 57,834 (International Streaming Segment)": the year's figure of each table. */
function yearFigures(rows: { row: Candidate; table: string }[], all: Candidate[], year: number | undefined): string | undefined {
  const figures = rows.flatMap(({ row, table }) => {
    const cell = cellForYear(row.text, columnHeaderOf(row, all), year);
    return cell === undefined ? [] : [`${cell} (${table})`];
  });
  return figures.length === rows.length ? `${year}: ${figures.join(', ')}` : undefined;
}

/**
 * Quotes first, each marked with the number of its source, then the sources: “…” [1] “…” [2]  Sources: [1] a.pdf,
 * page 4; [2] b.pdf, page 1. Quotes of one page are joined in document order (`leading` first). At most 80 words of quotation.
 */
/**
 * The chosen units as quotes, one per page in the order chosen (the first holds the best match: the answer's own
 * quote; the others are what else was found), numbered in that order, with the sources list they cite.
 */
function render(chosen: Candidate[], leading?: Candidate): { parts: string[]; sources: string } & Required<Pick<Answer, 'markers' | 'quotes'>> {
  const groups = new Map<string, Candidate[]>();
  for (const c of chosen) {
    const key = `${c.passage.filename}\u0000${c.passage.page}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  let budget = MAX_ANSWER_WORDS;
  const quotes: string[] = [];
  const sources: string[] = [];
  const markers: Record<string, number> = {};
  const quoted: Record<string, string> = {};
  for (const group of groups.values()) {
    if (budget <= 0) break;
    // In reading order, but what answers (`leading`) leads its page's quote, so the 80 words never cut it off.
    group.sort((a, b) => Number(b === leading) - Number(a === leading) || a.rank - b.rank || a.position - b.position);
    // A quote that ends on a colon stops where its list starts (in another passage): say that it goes on.
    const quote = limitWords(joinLines(group), budget).replace(/:$/, ': …');
    budget -= countWords(quote);
    const n = sources.length + 1;
    quotes.push(`“${quote}” [${n}]`);
    sources.push(`[${n}] ${passagePlace(group[0].passage)}`);
    for (const c of group) {
      markers[c.passage.ref] = n;
      // Every unit it quotes of the passage (a heading alone would centre its source's excerpt on the heading).
      quoted[c.passage.ref] = quoted[c.passage.ref] ? `${quoted[c.passage.ref]} ${c.text}` : c.text;
    }
  }
  return { parts: quotes, sources: sources.join('; '), markers, quotes: quoted };
}

/** Units of one quote in order; a table's rows kept apart from each other and from the text around them by " | ". */
function joinLines(units: Candidate[]): string {
  const tableLine = (c: Candidate) => c.kind === 'row' || c.kind === 'columns';
  return units.map((c, i) => (i === 0 ? '' : tableLine(c) || tableLine(units[i - 1]) ? ' | ' : ' ') + c.text).join('');
}

/**
 * The sentence itself when it fits in `maxWords`, else the run of `maxWords` words holding most of the question's
 * terms, marked with ellipses where it was cut.
 */
function fitted(candidate: Candidate, maxWords: number, queryTerms: Set<string>): Candidate {
  if (candidate.words <= maxWords) return candidate;
  const words = candidate.text.split(/\s+/);
  const hit = words.map((w) => (queryTerms.has(termKey(w.replace(/[^\p{L}\p{N}]/gu, ''))) ? 1 : 0));
  let best = 0;
  let bestCount = -1;
  for (let start = 0; start + maxWords <= words.length; start++) {
    let count = 0;
    for (let i = start; i < start + maxWords; i++) count += hit[i];
    if (count > bestCount) {
      bestCount = count;
      best = start;
    }
  }
  // Centre the matches: answers sit next to the words the question shares with them, on either side.
  const matched = hit.map((h, i) => (h ? i : -1)).filter((i) => i >= best && i < best + maxWords);
  if (matched.length > 0) {
    const centre = Math.round((matched[0] + matched[matched.length - 1]) / 2);
    best = Math.max(0, Math.min(words.length - maxWords, centre - Math.floor(maxWords / 2)));
  }
  const text = `${best > 0 ? '… ' : ''}${words.slice(best, best + maxWords).join(' ')}${best + maxWords < words.length ? ' …' : ''}`;
  return { ...candidate, text, words: maxWords };
}

function limitWords(text: string, max: number): string {
  const words = text.split(/\s+/);
  return words.length <= max ? text : `${words.slice(0, max).join(' ')}…`;
}

/** The ranked units with the sentence that states the figure first (found by statedInProse). */
function statingFirst(ranked: Candidate[], sentence: string): Candidate[] {
  const stating = ranked.find((c) => c.text === sentence);
  return stating ? [stating, ...ranked.filter((c) => c !== stating)] : ranked;
}

/** The years a question names, in its order. */
function yearsIn(question: string): number[] {
  return (question.match(YEAR) ?? []).map(Number);
}
