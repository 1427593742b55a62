import { useEffect, useState } from 'preact/hooks';

/** The selected session is the address: /sessions/<id>. A reload or a bookmark reopens it. */
export function sessionIdFromPath(path = location.pathname): string | undefined {
  const match = /^\/sessions\/([^/]+)\/?$/.exec(path);
  return match ? decodeURIComponent(match[1]) : undefined;
}

export function navigate(sessionId: string | undefined, replace = false) {
  const path = sessionId ? `/sessions/${encodeURIComponent(sessionId)}` : '/';
  if (path === location.pathname) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useSelectedSessionId(): string | undefined {
  const [id, setId] = useState(sessionIdFromPath);
  useEffect(() => {
    const update = () => setId(sessionIdFromPath());
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return id;
}
