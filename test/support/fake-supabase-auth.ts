import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/**
 * An HTTP server answering `GET /auth/v1/user` as Supabase's auth service does: 200 with the user for a token it
 * signed, 403 `bad_jwt` for a bad or expired one, 401 `Invalid API key` for a missing or wrong apikey header (as
 * Supabase's gateway does). Counts the calls so caching can be tested.
 */
export class FakeSupabaseAuth {
  calls = 0;
  /** When set, every answer is this status (e.g. 500 to simulate an outage). */
  forceStatus: number | null = null;
  /** Accounts for the password grant (a browser signing in with supabase-js): email → password and user id. */
  readonly users = new Map<string, { password: string; id: string }>();
  /** Lifetime of the access tokens the grants issue, in seconds. */
  tokenLifetimeSeconds = 3600;
  /** Grants answered, by type: `password`, `refresh_token`. */
  readonly grants: string[] = [];
  private readonly refreshTokens = new Map<string, string>();
  private server?: http.Server;

  constructor(
    readonly jwtSecret: string,
    readonly anonKey = 'anon-key-for-tests',
  ) {}

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    // A browser on another origin (the web app) calls the auth API directly: CORS as Supabase answers it.
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS', 'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*' });
      return void res.end();
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method === 'POST' && url.pathname === '/auth/v1/token') return this.grant(url.searchParams.get('grant_type') ?? '', await readJson(req), send);
    if (req.method === 'POST' && url.pathname === '/auth/v1/logout') return void (res.writeHead(204), res.end());
    if (req.method !== 'GET' || req.url !== '/auth/v1/user') return send(404, { message: 'no route' });
    this.calls += 1;
    if (this.forceStatus) return send(this.forceStatus, { code: this.forceStatus, error_code: 'unexpected_failure', msg: 'boom' });
    if (req.headers.apikey !== this.anonKey) return send(401, { message: 'Invalid API key' });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return send(401, { code: 401, error_code: 'no_authorization', msg: 'This endpoint requires a Bearer token' });
    try {
      const { payload } = await jwtVerify(token, new TextEncoder().encode(this.jwtSecret), { audience: 'authenticated' });
      send(200, {
        id: payload.sub, aud: 'authenticated', role: 'authenticated', email: `${payload.sub}@example.test`,
        app_metadata: { provider: 'email' }, user_metadata: {}, created_at: '2026-01-01T00:00:00Z',
      });
    } catch (error) {
      send(403, { code: 403, error_code: 'bad_jwt', msg: `invalid JWT: unable to parse or verify signature, ${(error as Error).message}` });
    }
  }

  /** POST /auth/v1/token: the password and refresh_token grants, answering a session as GoTrue does. */
  private async grant(type: string, body: Record<string, string>, send: (status: number, body: unknown) => void): Promise<void> {
    let userId: string | undefined;
    if (type === 'password') userId = this.users.get(body.email)?.password === body.password ? this.users.get(body.email)!.id : undefined;
    else if (type === 'refresh_token') userId = this.refreshTokens.get(body.refresh_token);
    if (!userId) return send(400, { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
    this.grants.push(type);
    const now = Math.floor(Date.now() / 1000);
    const accessToken = await new SignJWT({ role: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId).setAudience('authenticated').setIssuedAt(now).setExpirationTime(now + this.tokenLifetimeSeconds)
      .setJti(randomUUID()) // each grant a token of its own, even within one second
      .sign(new TextEncoder().encode(this.jwtSecret));
    const refreshToken = randomUUID();
    this.refreshTokens.set(refreshToken, userId);
    send(200, {
      access_token: accessToken, token_type: 'bearer', expires_in: this.tokenLifetimeSeconds, expires_at: now + this.tokenLifetimeSeconds,
      refresh_token: refreshToken,
      user: { id: userId, aud: 'authenticated', role: 'authenticated', email: `${userId}@example.test`, app_metadata: { provider: 'email' }, user_metadata: {}, created_at: '2026-01-01T00:00:00Z' },
    });
  }
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, string>;
  } catch {
    return {};
  }
}
