import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';

/**
 * An HTTP server answering `GET /auth/v1/user` as Supabase's auth service does: 200 with the user for a token it
 * signed, 403 `bad_jwt` for a bad or expired one, 401 `Invalid API key` for a missing or wrong apikey header (as
 * Supabase's gateway does). Counts the calls so caching can be tested.
 */
export class FakeSupabaseAuth {
  calls = 0;
  /** When set, every answer is this status (e.g. 500 to simulate an outage). */
  forceStatus: number | null = null;
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
}
