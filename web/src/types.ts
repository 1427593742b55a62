/** The API's resources as docs/api.md describes them (only the fields the app reads). */
export interface Session {
  id: string;
  label: string;
  createdAt?: string;
}

export interface Source {
  filename: string;
  page: number;
  excerpt: string;
  score: number;
  ingestId: string;
  /** Whether the answer quotes it; absent on answers stored before the API said so. */
  cited?: boolean;
  /** The number the answer's text cites it by ("[2]"), on cited sources when the answerer numbers them. */
  marker?: number;
  /** What the answer quotes of the passage, word for word, when the answerer says (the extractive one does). */
  quote?: string;
  /** Of a document without pages: the unit the passage is in ("Sheet Q3"), named instead of the page. */
  unit?: string;
}

/** A page an answer cites, with every passage it quotes from that page (sources of one page shown as one). */
export interface CitedPage {
  filename: string;
  ingestId: string;
  page: number;
  /** The unit's label, for a document without pages ("Sheet Q3"): shown as text, not as a page image. */
  unit?: string;
  /** Each passage's excerpt, and what the answer quotes of it (marked on the page and in the excerpt) if it says. */
  passages: { excerpt: string; quote?: string }[];
  /** The answer quotes these passages (false: passages found for the question that it does not quote). */
  quoted: boolean;
}

/** A rectangle on a page image, in fractions of its width and height from its top left. */
export interface PageArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  createdAt?: string;
  sources?: Source[];
}

export type IngestStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface IngestJob {
  id: string;
  status: IngestStatus;
  stage?: string;
  progress?: number;
  filename: string;
  session_id: string;
  error?: string;
  /** While extracting: the page being read. */
  readingPage?: number;
  pages?: number;
  chunks?: number;
  /** What kind of document it is (receipt, financial-report, form, letter, other), once told. */
  kind?: string;
  tags: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export type AuthConfig = { mode: 'local' } | { mode: 'supabase'; supabaseUrl: string; supabaseAnonKey: string };

/** A document of the user's library (GET /api/v1/documents): one per content, with the sessions holding it. */
export interface LibraryDocument {
  id: string;
  filename: string;
  pages?: number;
  sessions: { sessionId: string; label: string; ingestId: string; addedAt: string }[];
}

/** What GET /api/v1/search?q= found among the caller's own sessions (by name) and messages (by text), best first. */
export interface SearchMatches {
  sessions: { sessionId: string; label: string; createdAt: string }[];
  messages: { messageId: string; sessionId: string; sessionLabel: string; role: 'user' | 'assistant'; excerpt: string; createdAt: string }[];
}
