import { useEffect, useRef } from 'preact/hooks';

/** What one tab tells the app's other tabs of the same browser: something they show changed. */
export type TabMessage = { kind: 'sessions' } | { kind: 'documents'; sessionId: string } | { kind: 'signed-out' };

const NAME = 'doc-chat';
// One channel per tab: a BroadcastChannel does not hear its own messages, so a tab never reloads on its own change.
const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(NAME);

export const broadcast = (message: TabMessage) => channel?.postMessage(message);

export function useBroadcast(listener: (message: TabMessage) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    if (!channel) return;
    const hear = (e: MessageEvent<TabMessage>) => latest.current(e.data);
    channel.addEventListener('message', hear);
    return () => channel.removeEventListener('message', hear);
  }, []);
}
