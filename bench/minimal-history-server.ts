/**
 * The least a server does to answer the history page (bench/history-under-load.ts measures the service against it):
 * Koa, jose verifying the bearer token on every request, better-sqlite3 reading the session's ownership, count and
 * page from the service's own database file (read-only), and the same JSON body as the service's. No router, no
 * logging, no metrics, no error mapping: what any Koa + jose + better-sqlite3 server must pay for the same page.
 * Run by plain node (Node strips the types); PORT, DB_FILE and JWT_SECRET in the environment.
 */
import Database from 'better-sqlite3';
import { jwtVerify } from 'jose';
import Koa from 'koa';

const PAGE_SIZE = 20;
const ROUTE = /^\/api\/v1\/chat\/history\/([^/]+)$/;

const db = new Database(process.env.DB_FILE!, { readonly: true });
const owned = db.prepare('SELECT message_count AS total FROM sessions WHERE id = ? AND user_id = ?');
const page = db.prepare('SELECT role, content, sources_json, created_at FROM chat_messages WHERE session_id = ? ORDER BY seq LIMIT ? OFFSET ?');
const secret = new TextEncoder().encode(process.env.JWT_SECRET!);

interface Row { role: string; content: string; sources_json: string | null; created_at: string }

const app = new Koa();
app.use(async (ctx) => {
  const match = ROUTE.exec(ctx.path);
  if (ctx.method !== 'GET' || !match) return void (ctx.status = 404);
  const token = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
  let userId: string | undefined;
  try {
    userId = token ? (await jwtVerify(token, secret, { algorithms: ['HS256'], audience: 'authenticated' })).payload.sub : undefined;
  } catch {
    userId = undefined;
  }
  if (!userId) return void (ctx.status = 401);
  const session = owned.get(match[1], userId) as { total: number } | undefined;
  if (!session) return void (ctx.status = 404);
  const rows = page.all(match[1], PAGE_SIZE, PAGE_SIZE * Math.max(0, Number(ctx.query.page ?? 0) || 0)) as Row[];
  ctx.body = {
    success: true,
    data: rows.map((row) => ({
      role: row.role, content: row.content, createdAt: row.created_at,
      ...(row.role === 'assistant' && {
        sources: row.sources_json ? (JSON.parse(row.sources_json) as { cited?: boolean }[]).map((s) => ({ ...s, cited: s.cited ?? true })) : [],
      }),
    })),
    total: session.total,
  };
});
app.listen(Number(process.env.PORT), '127.0.0.1');
