import type { Answer, ContextPassage } from '../ports/llm.js';
import { isTableText, tableOverview } from './table-overview.js';
import { runTogetherInFileName, splitSentences, termKey, termKeys, withoutPossessive, wordTokens } from './text.js';

/**
 * Questions about the documents as a whole ("What is this document about?", "Summarize the report", "What are the
 * main points?"): they name no subject of their own, so searching the documents for their words finds nothing
 * useful. They are answered from the opening passages of each document instead: its lead and its most central
 * sentences. Such a question may name the documents it means by words of their file names ("Summarize the Warsaw
 * guide" of warsaw-guide-2021.pdf): then it is about those documents only.
 *
 * The words below are generic: what people call a document, and how they ask for its gist. A question whose every
 * content word is one of them, and that holds at least one of the asking words, is an overview question.
 */
const DOCUMENT_WORDS = [
  'document', 'documents', 'doc', 'docs', 'report', 'reports', 'file', 'files', 'paper', 'papers', 'pdf', 'pdfs',
  'text', 'texts', 'article', 'articles', 'page', 'pages', 'upload', 'uploads', 'uploaded',
  'content', 'contents', 'material', 'materials', 'attachment', 'attachments', 'book', 'chapter', 'letter', 'memo',
  'annual', 'quarterly', 'form', 'forms', 'instructions', 'manual', 'guide', 'notice', 'scan',
  'scans', 'scanned', 'photo', 'photos', 'picture', 'image', 'receipt', 'invoice', 'contract', 'agreement', 'study',
  'transcript', 'presentation', 'slides',
];
const ASKING_WORDS = [
  'about', 'summary', 'summaries', 'summarize', 'summarise', 'summarizing', 'summarising', 'summarization', 'sum',
  'overview', 'gist', 'main', 'key', 'point', 'points', 'takeaway', 'takeaways', 'topic', 'topics', 'theme', 'themes',
  'subject', 'purpose', 'idea', 'ideas', 'outline', 'highlights', 'describe', 'description', 'tldr', 'abstract',
];
/** Words that only shape the request ("Can you give me a short summary of the file?"). */
const FILLER_WORDS = [
  'give', 'tell', 'explain', 'provide', 'show', 'list', 'please', 'briefly', 'brief', 'short', 'quick', 'quickly', 'general',
  'overall', 'whole', 'entire', 'up', 'cover', 'covers', 'covered', 'discuss', 'discusses', 'say', 'says', 'said',
  'contain', 'contains', 'talk', 'talks', 'mean', 'like', 'write', 'written', 'read', 'go', 'goes', 'kind', 'sort',
  'thing', 'things', 'important', 'let', 'know', 'need', 'want', 'get', 'one', 'two', 'three', 'few', 'couple',
];
const ASKING = new Set(ASKING_WORDS);
const ALLOWED_DOCUMENT = new Set(DOCUMENT_WORDS);
const ALLOWED = new Set([...DOCUMENT_WORDS, ...ASKING_WORDS, ...FILLER_WORDS]);
const REQUEST_WORDS = new Set([...ASKING_WORDS, ...FILLER_WORDS]);

/** A word that shapes a request rather than naming what it is about ("main", "say", "explain", "briefly"). */
export function isRequestWord(word: string): boolean {
  return REQUEST_WORDS.has(word.toLowerCase());
}
/** Function words (core/rag/text.ts's STOPWORDS holds most; these are the ones it keeps). */
const FUNCTION_WORDS = new Set(['can', 'could', 'would', 'me', 'us', 'i', 'a', 'an', 'the', 'of', 'in', 'on', 'this', 'these', 'it', 'what', 'whats', 'what’s', 'what\'s', 'is', 'are', 'was']);
/** Asking which documents there are ("What documents do I have?", "List my files"): their plural names. */
const LISTED_DOCUMENTS = new Set(['documents', 'docs', 'files', 'pdfs', 'uploads', 'papers']);
/** Parts of a document: "What is in the file?" asks for its gist, "What page is it in?" does not. */
const DOCUMENT_PARTS = new Set(['page', 'pages', 'text', 'texts', 'content', 'contents', 'chapter', 'form', 'forms']);
/** Words that point back to an earlier answer ("Which file is that in?"): a follow-up, not an overview. */
const POINTING_BACK = new Set(['it', 'that', 'they', 'them', 'those']);
/** An overview question names its documents in a few words ("the 2021 Warsaw guide"); more make a subject of its own. */
const MAX_NAMING_WORDS = 3;

/**
 * The words an overview question names its documents by (matching keys, possessives dropped: "Warsaw's" → warsaw),
 * [] when it names none, or undefined when the question is not an overview question.
 */
export function overviewSubject(question: string): string[] | undefined {
  const words = wordTokens(documentCodes(question));
  if (words.length === 0 || words.length > 16) return undefined;
  let asks = false;
  const naming: string[] = [];
  for (const [i, word] of words.entries()) {
    // "What about Krakow?" follows a question up; "What is the Krakow guide about?" asks for a gist.
    if (ASKING.has(word) && !(word === 'about' && /^(?:what|how)$/.test(words[i - 1] ?? ''))) asks = true;
    if (asksWhatHappens(words, i)) {
      asks = true;
      continue;
    }
    if (ALLOWED.has(word) || FUNCTION_WORDS.has(word) || termKeys(word).length === 0) continue;
    naming.push(termKey(withoutPossessive(word)));
  }
  return (asks || asksWhatDocuments(words)) && naming.length <= MAX_NAMING_WORDS ? [...new Set(naming)] : undefined;
}

/**
 * "What happens in the Huck Finn page?", "What happened in the report?": a story's or a record's gist. Only as "what
 * happens in/on …": "What happens if I file late?" has a subject of its own.
 */
function asksWhatHappens(words: string[], i: number): boolean {
  return /^happen(?:s|ed)$/.test(words[i]) && words[i - 1] === 'what' && /^(?:in|on)$/.test(words[i + 1] ?? '');
}

/** "What documents do I have?", "Which files did I upload?", "What is in this file?": what the documents are. */
function asksWhatDocuments(words: string[]): boolean {
  if (words.some((word) => POINTING_BACK.has(word))) return false;
  const listing = words.some((word) => LISTED_DOCUMENTS.has(word)) && words.some((word) => /^(?:what|which|list)$/.test(word));
  const whatIsIn = /^what/.test(words[0]) && words.includes('in') && words.some((word) => ALLOWED_DOCUMENT.has(word) && !DOCUMENT_PARTS.has(word));
  return listing || whatIsIn;
}

/** A question about the documents as a whole that names none of them. */
export function isOverviewQuestion(question: string): boolean {
  return overviewSubject(question)?.length === 0;
}

/**
 * The documents whose file names hold every naming word (overviewSubject), in the order given; none when no file name
 * does ("Summarize the risk factors" names a topic, not a document: a question for retrieval). With the question, words
 * it writes apart and a file name runs together count too ("Summarize the Huck Finn page" of scanned-huckfinn-p22.pdf).
 */
export function documentsNamed<D extends { filename: string }>(naming: readonly string[], documents: readonly D[], question?: string): D[] {
  return documents.filter((document) => {
    const words = new Set(wordTokens(documentCodes(document.filename)).map(termKey));
    if (question) for (const word of runTogetherInFileName(question, document.filename)) words.add(termKey(word));
    return naming.every((word) => words.has(word));
  });
}

/** A number and a letter joined by a hyphen ("8-K", "W-2") as one word, as file names write them ("W2_2023.pdf"). */
function documentCodes(text: string): string {
  return text.replace(/\b(\d+)-(\p{L})\b|\b(\p{L})-(\d+)\b/gu, (_, number, letter, first, last) => (number ? `${number}${letter}` : `${first}${last}`));
}

/**
 * Passages per document given to the answerer for an overview: its opening chunks. Three, not two: a notice whose
 * masthead and sidebar fill its first chunks has its summary in the third (the Federal Register's).
 */
export const OVERVIEW_CHUNKS_PER_DOCUMENT = 3;
/** Central sentences added to each document's lead. */
const CENTRAL_SENTENCES = 2;
/**
 * Sentences of fewer words (numbers not counted) are headings, fragments or citations ("Pub. L. No. 105-304, 112 Stat.
 * 2860"): not quoted (a title still leads if first).
 */
const MIN_SENTENCE_WORDS = 6;
const MAX_SENTENCE_CHARS = 400;

interface Candidate {
  ref: string;
  text: string;
  /** Position in the document's passages, for reading order. */
  position: number;
  keys: Set<string>;
  /** Opens the document's own summary ("SUMMARY: The FAA proposes …", the paragraph under "Abstract"). */
  summary?: boolean;
}

/** A label saying the document sums itself up: on a line of its own, or before the summary's first sentence. */
const SUMMARY_LABEL = /^(?:executive summary|summary|abstract)(?:\s*[:.—–]\s+|\s*[:.—–]?\s*$)/i;

/**
 * The extractive overview: for each document (passages grouped by filename, in the order given), its lead sentence
 * and its most central ones — those sharing the most words with the document's other sentences (a degree
 * centrality over word overlap, the simplest LexRank) — in reading order; or what `describe` says of it (a skill that
 * knows its kind). Cites every passage it quoted from.
 */
export function overviewAnswer(contexts: ContextPassage[], describe?: (passages: ContextPassage[]) => Answer | undefined): Answer {
  const byDocument = new Map<string, ContextPassage[]>();
  for (const passage of contexts) byDocument.set(passage.filename, [...(byDocument.get(passage.filename) ?? []), passage]);
  const parts: string[] = [];
  const usedRefs = new Set<string>();
  for (const [filename, passages] of byDocument) {
    // A document of a kind a skill knows (a receipt) is told as that kind tells itself; others by their sentences.
    const told = describe?.(passages) ?? fromSentences(documentOverview(passages));
    if (!told) continue;
    for (const ref of told.usedRefs) usedRefs.add(ref);
    parts.push(byDocument.size > 1 ? `${filename}: ${told.text}` : told.text);
  }
  return { text: parts.join('\n\n'), usedRefs: [...usedRefs] };
}

function fromSentences(chosen: Candidate[]): Answer | undefined {
  return chosen.length === 0 ? undefined : { text: chosen.map((c) => c.text).join(' '), usedRefs: chosen.map((c) => c.ref) };
}

/** Said under an overview of the first `shown` of `all` documents, whichever answerer wrote it. */
export function moreDocumentsNote(shown: number, all: number): string {
  return `(The first ${shown} of ${all} documents. Name one, by a word of its file name, to ask about it.)`;
}

function documentOverview(passages: ContextPassage[]): Candidate[] {
  const sentences: Candidate[] = [];
  let summaryNext = false;
  for (const passage of passages) {
    // Line by line: a chunk starts with the section title it falls under on a line of its own, and a title run into
    // the sentence after it would quote neither as written.
    for (const line of passage.text.split(/\n+/)) {
      const trimmed = line.trim();
      if (SUMMARY_LABEL.exec(trimmed)?.[0].length === trimmed.length) {
        summaryNext = true;
        continue;
      }
      for (const sentence of splitSentences(line)) {
        const labelled = SUMMARY_LABEL.exec(sentence);
        // Chunks overlap by a sentence or two: each is a candidate once.
        const text = withoutHeadline(labelled ? sentence.slice(labelled[0].length) : sentence);
        if (text.length > MAX_SENTENCE_CHARS || sentences.some((s) => s.text === text)) continue;
        sentences.push({ ref: passage.ref, text, position: sentences.length, keys: new Set(termKeys(text)), summary: Boolean(labelled) || summaryNext });
        summaryNext = false;
      }
    }
  }
  const full = sentences.filter((s) => wordTokens(s.text).filter((w) => /\p{L}/u.test(w)).length >= MIN_SENTENCE_WORDS && s.keys.size > 0 && !isTableText(s.text));
  if (full.length === 0) {
    // No prose: a table's document is told by its table, else its first line is all there is.
    const table = tableOverview(passages);
    return table ? [{ ...table, position: 0, keys: new Set() }] : sentences.slice(0, 1);
  }
  // The document's own summary leads where it has one, and what comes before it (a masthead, a sidebar, the authors)
  // is left out; else its first sentence leads (an article's lead).
  const lead = full.find((s) => s.summary) ?? full[0];
  const centrality = (s: Candidate) => {
    let shared = 0;
    for (const other of full) if (other !== s) for (const key of s.keys) if (other.keys.has(key)) shared++;
    // Normalised by length, so a long sentence is not central merely for holding many words.
    return shared / Math.sqrt(s.keys.size);
  };
  const central = full
    .filter((s) => s.position > lead.position)
    .map((s) => ({ s, score: centrality(s) }))
    .sort((a, b) => b.score - a.score || a.s.position - b.s.position)
    .slice(0, CENTRAL_SENTENCES)
    .map(({ s }) => s);
  return [lead, ...central].sort((a, b) => a.position - b.position);
}

/** A headline run into a sentence has at least this many words before the sentence starts. */
const MIN_HEADLINE_WORDS = 4;

/**
 * The sentence without the headline a page's text layer ran into it: a run of capitalised words and numbers
 * ("1 Copyright Office Summary December 1998 Page 1 THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998 … INTRODUCTION")
 * ending on a word in capitals, before a sentence's first word ("The Digital Millennium Copyright Act (DMCA) was
 * signed …"). A short run ("IBM Watson was …") is a sentence's own subject and stays.
 */
function withoutHeadline(sentence: string): string {
  const words = sentence.split(' ');
  const prose = words.findIndex((word) => /^\p{Ll}/u.test(word));
  let cut = -1;
  for (let i = MIN_HEADLINE_WORDS - 1; i < (prose < 0 ? 0 : prose) - 1; i++) {
    if (/^\p{Lu}{3,}\p{P}?$/u.test(words[i]) && /^\p{Lu}\p{Ll}/u.test(words[i + 1])) cut = i;
  }
  return cut < 0 ? sentence : words.slice(cut + 1).join(' ');
}
