export interface Session {
  id: string;
  label: string;
  userId: string;
  createdAt: string; // ISO 8601
}

export type ChatRole = 'user' | 'assistant';

export interface Source {
  filename: string;
  page: number;
  excerpt: string;
  score: number;
  ingestId: string;
  /**
   * Whether the answer quotes (or, from a model, cites) this passage. The other sources are passages ranked highest
   * for the question that the answer does not draw on: shown apart, as further reading.
   */
  cited: boolean;
  /** The number the answer's text cites it by ("[2]": 2), when it is cited and the answerer numbers its citations. */
  marker?: number;
  /**
   * What the answer quotes of this passage, word for word ("…" where it left words out), when the answerer says so
   * (the extractive one does): the words a client marks on the page, within the wider excerpt.
   */
  quote?: string;
  /**
   * The unit the passage is in, for a document without pages (a Word section, a sheet, a slide: "Sheet Q3"), in place
   * of `page`, which then only counts units. None for PDFs and photos.
   */
  unit?: string;
}

export interface ChatMessage {
  id: string;
  sessionId: string;
  role: ChatRole;
  content: string;
  createdAt: string;
  /** Only on assistant messages: the passages the answer came from. */
  sources?: Source[];
}

export type IngestStatus = 'queued' | 'processing' | 'completed' | 'failed';
/** `recognizing`: extracting, the page being read is a scan or photo read by OCR. */
export type IngestStage = 'reading' | 'extracting' | 'recognizing' | 'chunking' | 'embedding' | 'indexing';

export interface IngestJob {
  id: string;
  userId: string;
  sessionId: string;
  key: string;
  filename: string;
  contentType: string;
  tags: Record<string, string>;
  status: IngestStatus;
  stage?: IngestStage;
  /** 0..1 within the whole job. */
  progress?: number;
  error?: string;
  pages?: number;
  chunks?: number;
  /** Pages that needed OCR but were skipped because the document's OCR page limit was reached. */
  ocrSkippedPages?: number;
  sha256?: string;
  /**
   * Runs started for this job (counted at each start, so a run cut short by a crash counts too). Bounded: runs in a
   * row that indexed no further page are limited, and past the limit the job fails with a reason naming them.
   */
  attempts?: number;
  /** How far the job's runs got: the pages whose chunks are in every index. A retried run starts after them. */
  checkpoint?: IngestCheckpoint;
  /**
   * The page the run is reading (the first not yet indexed), recorded before it reads and as it advances: when a
   * run ends without an outcome (its process was killed), the next run finds where it died.
   */
  readingPage?: number;
  /** The page on which the previous run died, if it died reading: a second death there fails the job naming it. */
  diedOnPage?: number;
  /** When the content was already ingested into this session: the job whose chunks are reused. */
  reusedFrom?: string;
  /**
   * What kind of document it is (a DocumentClassifier's name for it, e.g. 'receipt', or 'other'), told once it is
   * read, or given by its `document_kind` tag (KIND_TAG). None: not told (read before kinds were, or no classifier is configured).
   */
  kind?: string;
  /**
   * When the document was added from the user's library (another session's copy of the same content): the job whose
   * chunks were copied for this one. This job holds its own copy: removing either leaves the other.
   */
  copiedFrom?: string;
  /**
   * Of a document without pages (Word, Excel, PowerPoint, HTML, text, e-mail), each unit's label by page: units[n - 1]
   * names page n ("Sheet Q3"), '' where a unit has none (all '' for a short text file). None for PDFs and photos.
   */
  units?: string[];
  /**
   * When the document came attached to an e-mail of the same session: the mail's job. Its own document all the same
   * (listed, cited, deleted on its own); the mail's job made it, once, however often the mail's job runs.
   */
  attachedTo?: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * Progress of an ingest job that survives its run: pages 1..`pages` are chunked and in every index, as `chunks`
 * chunks (ordinals 0..chunks - 1). A later run of the job reads from page `pages` + 1 and numbers chunks on from there.
 */
export interface IngestCheckpoint {
  pages: number;
  chunks: number;
  /** Of those pages, the ones that needed OCR but were skipped (the OCR page limit). */
  ocrSkippedPages: number;
  /** The section in force after the last of them (core/rag/chunking.ts carries it over to the next page). */
  section: ChunkSection;
  /** The run (IngestJob.attempts at the time) that moved it last: runs after it indexed no further page. */
  run: number;
}

/** What chunking carries from one page to the next: the section's title, sub-heading, table column header, unit and period, and whether a table runs on. */
export interface ChunkSection {
  title?: string;
  heading?: string;
  columns?: string;
  /** The line under the column header that names the figures' unit ("(In millions)"). */
  unit?: string;
  /** The line within the table naming the period of the rows below it ("December 31, 2018"), when the table prints one. */
  period?: string;
  /** The last chunk ended inside the table (on a row): a chunk opening on its rows continues it. */
  inTable?: boolean;
}

/** A piece of a document as it is indexed for retrieval. */
export interface Chunk {
  id: string;
  sessionId: string;
  jobId: string;
  filename: string;
  page: number;
  /** Position of the chunk within its document, from 0. */
  ordinal: number;
  text: string;
  tags: Record<string, string>;
}

export interface ExtractedPage {
  /** 1-based page number (an image is page 1). */
  page: number;
  text: string;
  /**
   * How the text was obtained. 'ocr-skipped': the page had no text layer and needed OCR, but the document's OCR page
   * limit was reached; its text is empty and the job counts it (IngestJob.ocrSkippedPages).
   */
  method: 'text' | 'ocr' | 'ocr-skipped';
  /** The unit this page is, for a document without pages ("Sheet Q3", "Slide 4", "7. Termination"; '' for none). */
  label?: string;
}

export const ALLOWED_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/jpg'] as const;
export type AllowedContentType = (typeof ALLOWED_CONTENT_TYPES)[number];
export const MAX_FILE_SIZE = 52_428_800;
export const UPLOAD_URL_TTL_SECONDS = 3600;
export const HISTORY_PAGE_SIZE = 20;
