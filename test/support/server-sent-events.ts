/** One server-sent event as a client reads it: its name (default "message") and its data lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Parses a text/event-stream body (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation):
 * events are separated by a blank line; `event:` names one, `data:` lines are joined with "\n", comments (":") and
 * other fields are ignored. `rest` is the unfinished event at the end (more may still arrive).
 */
export function parseServerSentEvents(text: string): { events: ServerSentEvent[]; rest: string } {
  const blocks = text.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: ServerSentEvent[] = [];
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

/**
 * Reads a response body as it arrives and yields each complete event: what a browser's EventSource does, over fetch
 * (EventSource cannot POST).
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    const { events, rest } = parseServerSentEvents(buffer);
    buffer = rest;
    yield* events;
  }
}
