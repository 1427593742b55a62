import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Answer } from './Answer';
import { Api, Unauthorized } from './api';
import { Choices } from './Choices';
import { ConfirmDialog } from './ConfirmDialog';
import { download } from './download';
import { conversationMarkdown } from './transcript';
import type { ChatMessage, CitedPage, IngestJob } from './types';

const PAGE_SIZE = 20;
/** The chat route's limit (docs/api.md): shown as the reader types, never cut silently. */
export const MAX_QUESTION = 4000;

interface Shown extends ChatMessage {
  streaming?: boolean;
}

/**
 * The conversation (history loaded page by page upwards), the question box, the choice of documents and tag filters.
 * A cited page opens through `onOpen` (beside the chat or over it: the session view decides). `onAsked` hears each
 * question sent (an untitled session takes its name from the first).
 */
export function Chat({ api, sessionId, title, documents, onOpen, onAsked }: {
  api: Api; sessionId: string; title: string; documents: IngestJob[]; onOpen(page: CitedPage): void; onAsked(question: string): void;
}) {
  const [messages, setMessages] = useState<Shown[]>([]);
  const [oldestPage, setOldestPage] = useState<number | undefined>();
  const [loadingHistory, setLoadingHistory] = useState(true);
  const [question, setQuestion] = useState('');
  const [streaming, setStreaming] = useState<AbortController | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [filters, setFilters] = useState<Set<string>>(new Set());
  const [chosenDocuments, setChosenDocuments] = useState<Set<string>>(new Set());
  const [confirmClear, setConfirmClear] = useState(false);
  /** A question sent while the history still loads: it goes once the history is shown. */
  const [queued, setQueued] = useState(false);
  const log = useRef<HTMLDivElement>(null);
  const keepBottom = useRef<number | undefined>(undefined);
  const stickToEnd = useRef(true);
  const lastScrollTop = useRef(0);
  const earlierButton = useRef<HTMLButtonElement>(null);
  const focusFirstMessage = useRef(false);

  const fail = (e: unknown) => {
    if (!(e instanceof Unauthorized)) setError(e instanceof Error ? e.message : String(e));
  };

  // The last page first (the body's `total` says which it is), then older pages as the reader scrolls up.
  useEffect(() => {
    let live = true;
    (async () => {
      const first = await api.history(sessionId, 0);
      if (first.total === undefined || first.total <= PAGE_SIZE) return { page: 0, data: first.data };
      const last = Math.floor((first.total - 1) / PAGE_SIZE);
      return { page: last, data: (await api.history(sessionId, last)).data };
    })().then(
      ({ page, data }) => live && (setMessages(data), setOldestPage(page), setLoadingHistory(false)),
      (e) => live && (fail(e), setLoadingHistory(false)),
    );
    return () => void (live = false);
  }, [sessionId]);

  const loadEarlier = async () => {
    if (!oldestPage || loadingHistory) return;
    setLoadingHistory(true);
    // The button pressed may go (the first page came): the focus then moves to the earliest message, never to <body>.
    const pressed = document.activeElement === earlierButton.current;
    try {
      const { data } = await api.history(sessionId, oldestPage - 1);
      keepBottom.current = log.current ? log.current.scrollHeight - log.current.scrollTop : undefined;
      stickToEnd.current = false;
      setMessages((list) => [...data, ...list]);
      setOldestPage(oldestPage - 1);
      if (pressed && oldestPage - 1 === 0) focusFirstMessage.current = true;
    } catch (e) {
      fail(e);
    } finally {
      setLoadingHistory(false);
    }
  };

  // Older messages prepended keep the reader's place; new ones scroll into view.
  useLayoutEffect(() => {
    const el = log.current;
    if (!el) return;
    if (keepBottom.current !== undefined) {
      el.scrollTop = el.scrollHeight - keepBottom.current;
      keepBottom.current = undefined;
    } else if (stickToEnd.current) el.scrollTop = el.scrollHeight;
    if (focusFirstMessage.current) {
      focusFirstMessage.current = false;
      el.querySelector<HTMLElement>('article.message')?.focus({ preventScroll: true });
    }
  }, [messages]);

  // A narrower conversation (a source opened beside it, a turned phone) keeps the latest message in view.
  useEffect(() => {
    const el = log.current;
    if (!el) return;
    const observer = new ResizeObserver(() => stickToEnd.current && (el.scrollTop = el.scrollHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // The first history page came (or failed). Asked before, an answer would stream into a list the history then replaces.
  const historyShown = oldestPage !== undefined || !loadingHistory;
  // The question sent while it loaded goes now (the box still holds it: an edit meanwhile is what is sent).
  useEffect(() => {
    if (queued && historyShown) void ask();
  }, [queued, historyShown]);

  const ask = async () => {
    const message = question.trim();
    if (!message || message.length > MAX_QUESTION || streaming) return;
    // Asked before the history is shown, the answer would stream into a list the history then replaces: it waits.
    if (!historyShown) return setQueued(true);
    setQueued(false);
    const controller = new AbortController();
    setError(undefined);
    setQuestion('');
    setStreaming(controller);
    stickToEnd.current = true;
    setMessages((list) => [...list, { role: 'user', content: message }, { role: 'assistant', content: '', streaming: true }]);
    onAsked(message);
    const updateLast = (change: (m: Shown) => Shown) => setMessages((list) => [...list.slice(0, -1), change(list[list.length - 1])]);
    try {
      const chosen = chosenFilters(filters);
      // A chosen document removed since is no longer asked; none left chosen asks them all.
      const only = readable.filter((doc) => chosenDocuments.has(doc.id)).map((doc) => doc.id);
      await api.ask({ message, sessionId, ...(chosen ? { filters: chosen } : {}), ...(only.length > 0 ? { documents: only } : {}) }, {
        delta: (text) => updateLast((m) => ({ ...m, content: m.content + text })),
        sources: (sources) => updateLast((m) => ({ ...m, sources })),
      }, controller.signal);
      updateLast((m) => ({ ...m, streaming: false }));
    } catch (e) {
      if (controller.signal.aborted) updateLast((m) => ({ ...m, streaming: false, content: `${m.content}${m.content ? ' ' : ''}(stopped)` }));
      else {
        // Nothing was stored: the question goes back in the box.
        setMessages((list) => list.slice(0, -2));
        setQuestion(message);
        fail(e);
      }
    } finally {
      setStreaming(undefined);
    }
  };

  const clear = async () => {
    setConfirmClear(false);
    try {
      await api.clearChat(sessionId);
      setMessages([]);
      setOldestPage(0);
    } catch (e) {
      fail(e);
    }
  };

  const tagChoices = distinctTags(documents);
  const readable = documents.filter((doc) => doc.status === 'completed');
  const tooLong = question.trim().length > MAX_QUESTION;
  const exportChat = () => download(`${title.replace(/[^\p{L}\p{N} _.-]+/gu, '').trim() || 'conversation'}.md`, conversationMarkdown(title, messages));
  return (
    <section class="chat" aria-labelledby="chat-title">
      <div class="chat-head">
        <h2 id="chat-title">Chat</h2>
        <div class="chat-actions">
          <button type="button" onClick={exportChat} disabled={messages.length === 0 || !!streaming}>Export</button>
          <button type="button" onClick={() => setConfirmClear(true)} disabled={messages.length === 0 || !!streaming}>Clear chat</button>
        </div>
      </div>
      {readable.length > 1 && (
        <Choices legend="Only these documents" class="documents-choice" chosen={chosenDocuments} onChange={setChosenDocuments}
          options={readable.map((doc) => ({ value: doc.id, label: doc.filename }))} />
      )}
      {tagChoices.length > 0 && (
        <Choices legend="Only documents tagged" chosen={filters} onChange={setFilters}
          options={tagChoices.map((choice) => ({ value: choice, label: choice.replace('\u0000', ': ') }))} />
      )}
      <div class="log" role="log" aria-label="Conversation" ref={log} tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          stickToEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          // Only a scroll upwards loads earlier messages: a short page scrolled to its end may still sit near the top.
          const up = el.scrollTop < lastScrollTop.current;
          lastScrollTop.current = el.scrollTop;
          if (up && el.scrollTop < 40) void loadEarlier();
        }}>
        {oldestPage !== undefined && oldestPage > 0 && (
          // aria-disabled, not disabled: a disabled button loses the keyboard focus to <body>.
          <button type="button" ref={earlierButton} class="link earlier" onClick={() => void loadEarlier()} aria-disabled={loadingHistory}>Load earlier messages</button>
        )}
        {messages.length === 0 && !loadingHistory && <p class="none">Ask a question about this session's documents.</p>}
        {messages.map((m, i) => (
          <article key={i} class={`message ${m.role}`} aria-busy={m.streaming ? 'true' : undefined} tabIndex={-1}>
            <h3 class="visually-hidden">{m.role === 'user' ? 'You' : 'Answer'}</h3>
            {m.role === 'assistant' ? (
              m.streaming && !m.content
                ? <p class="content searching" aria-hidden="true">Searching your documents…</p>
                : <Answer text={m.content} sources={m.sources} open={onOpen} streaming={m.streaming} />
            ) : <p class="content">{m.content}</p>}
          </article>
        ))}
      </div>
      {/* Said once per question: the visible "Searching…" above is hidden from screen readers, the streamed text busy. */}
      <p class="visually-hidden" role="status">{streaming ? 'Searching your documents…' : queued ? 'Your question is sent once the conversation so far has loaded.' : ''}</p>
      {error && <p class="error" role="alert">{error}</p>}
      <form class="ask" id="ask" onSubmit={(e) => { e.preventDefault(); void ask(); }}>
        <label for="question" class="visually-hidden">Question</label>
        <textarea
          id="question"
          rows={2}
          placeholder="Ask about your documents"
          aria-describedby="ask-keys question-length"
          aria-invalid={tooLong ? 'true' : undefined}
          value={question}
          onInput={(e) => setQuestion(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              void ask();
            }
          }}
        />
        {streaming ? (
          <button type="button" class="danger" onClick={() => streaming.abort()}>Stop</button>
        ) : (
          <button type="submit" class="primary" disabled={!question.trim() || tooLong || queued}>Ask</button>
        )}
      </form>
      {/* Said once under the box, not in its placeholder: a phone's narrow box cut that off mid-sentence. */}
      <div class="ask-notes">
        {/* Said by the status above; shown here, under the box, on a phone too. */}
        {queued && <p class="ask-queued" aria-hidden="true">Your question is sent once the conversation so far has loaded…</p>}
        <p id="ask-keys" class="ask-keys">Enter sends, Shift+Enter starts a new line.</p>
        <QuestionLength length={question.trim().length} />
      </div>
      {confirmClear && (
        <ConfirmDialog title="Clear the conversation?" text="Every message of this session is deleted for good; the documents stay."
          confirm="Clear" onConfirm={() => void clear()} onCancel={() => setConfirmClear(false)} />
      )}
    </section>
  );
}

/**
 * The question's length against the limit as the reader types (a paste of a page shows at once what is too much), and
 * what to do when over: the box keeps every character, and Ask waits until it fits.
 */
function QuestionLength({ length }: { length: number }) {
  const over = length > MAX_QUESTION;
  const n = (x: number) => x.toLocaleString('en');
  return (
    <>
      <p id="question-length" class={over ? 'question-length error' : 'question-length'}>
        {over
          ? `Your question is ${n(length)} characters; the limit is ${n(MAX_QUESTION)}. Shorten it by ${n(length - MAX_QUESTION)} to ask.`
          : length > 0 ? `${n(length)} of ${n(MAX_QUESTION)} characters` : ''}
      </p>
      {/* A steady text, so a screen reader hears it once on going over, not at each key. */}
      <p class="visually-hidden" aria-live="polite">{over ? `The question is longer than ${n(MAX_QUESTION)} characters.` : ''}</p>
    </>
  );
}

/** Each tag name and value the session's completed documents carry, as "name\0value". */
function distinctTags(documents: IngestJob[]): string[] {
  const set = new Set<string>();
  for (const doc of documents) if (doc.status === 'completed') for (const [k, v] of Object.entries(doc.tags ?? {})) set.add(`${k}\u0000${v}`);
  return [...set].sort();
}

function chosenFilters(chosen: Set<string>): Record<string, string[]> | undefined {
  if (chosen.size === 0) return undefined;
  const filters: Record<string, string[]> = {};
  for (const choice of chosen) {
    const [name, value] = choice.split('\u0000');
    (filters[name] ??= []).push(value);
  }
  return filters;
}
