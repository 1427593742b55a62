import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { PinoLogger, type LogLevel } from '../../adapters/system/pino-logger.js';
import { loadConfig } from '../../server/config.js';
import { startService } from '../../server/service.js';
import { ApiClient } from '../support/api-client.js';
import { textPdf } from '../support/make-pdf.js';
import { freePort } from '../support/free-port.js';
import { REPO_ROOT } from '../support/paths.js';
import { TEST_JWT_SECRET } from '../support/test-service.js';

/** A real service logging through pino into memory: the lines exactly as a log collector would receive them. */
async function serviceLoggingTo(level: LogLevel) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'request-log-'));
  const output: string[] = [];
  const logger = new PinoLogger({ level, destination: { write: (line: string) => void output.push(line) } });
  const port = await freePort();
  const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, AUTH_JWT_SECRET: TEST_JWT_SECRET, PUBLIC_URL: `http://127.0.0.1:${port}` });
  const service = await startService(config, { logger });
  return {
    url: service.url,
    output,
    lines: () => output.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)),
    close: async () => {
      await service.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('logs: pino JSON lines and one request line per request', function () {
  this.timeout(60_000);

  it('writes method, route, path, status, duration and request id per request; never the token or upload signature', async () => {
    const service = await serviceLoggingTo('info');
    const { output, lines } = service;
    try {
      const token = await signLocalToken(TEST_JWT_SECRET, 'alice');
      const api = new ApiClient(service.url, token);
      const sessionId = await api.createSession('logs');
      const renamed = await api.patch(`/api/v1/session/${sessionId}?token=${token}`, { label: 'renamed' });
      expect(renamed.status).to.equal(200);
      const pdf = (await textPdf({ paragraphs: ['A page to upload.'] })).bytes;
      const urlRes = await api.post('/api/v1/ingest/upload/url', { filename: 'a.pdf', contentType: 'application/pdf', contentSize: pdf.length });
      const signedUrl = new URL(urlRes.body.uploadData.signedUrl as string);
      const put = await fetch(signedUrl, { method: 'PUT', body: pdf, headers: { 'Content-Type': 'application/pdf' } });
      expect(put.status).to.equal(200);
      const refused = await new ApiClient(service.url, 'not-a-valid-token').get('/api/v1/session/');
      expect(refused.status).to.equal(401);
      const health = await fetch(`${service.url}/api/v1/health`);
      expect(health.status).to.equal(200);

      const requests = lines().filter((l) => l.msg === 'request completed');
      const rename = requests.find((l) => l.method === 'PATCH');
      expect(rename).to.deep.include({
        level: 30, method: 'PATCH', route: '/api/v1/session/:sessionId', path: `/api/v1/session/${sessionId}`, status: 200,
        requestId: renamed.headers.get('x-request-id'),
      });
      expect(rename.durationMs).to.be.a('number').and.at.least(0);
      expect(rename.time).to.be.a('number');
      // A 401 is answered before any route matches: the path alone, and the status.
      const unauthorized = requests.find((l) => l.requestId === refused.headers.get('x-request-id'));
      expect(unauthorized).to.deep.include({ method: 'GET', path: '/api/v1/session/', status: 401 });
      expect(unauthorized).to.not.have.property('route');
      // Health checks are debug lines: not written at info.
      expect(requests.filter((l) => String(l.path).includes('/health'))).to.deep.equal([]);
      expect(requests.map((l) => `${l.method} ${l.route ?? l.path} ${l.status}`)).to.deep.equal([
        'POST /api/v1/session/ 201', 'PATCH /api/v1/session/:sessionId 200', 'POST /api/v1/ingest/upload/url 200',
        'PUT /uploads/*key 200', 'GET /api/v1/session/ 401',
      ]);

      const all = output.join('');
      expect(all).to.not.include(token);
      expect(all).to.not.include('not-a-valid-token');
      const signature = [...signedUrl.searchParams.values()].filter((value) => value.length >= 20);
      expect(signature, 'a signature in the upload URL').to.not.deep.equal([]);
      for (const value of signature) expect(all).to.not.include(value);
    } finally {
      await service.close();
    }
  });

  it('writes health checks at debug level when LOG_LEVEL allows it, and nothing below warn at warn', async () => {
    const debug = await serviceLoggingTo('debug');
    try {
      await fetch(`${debug.url}/api/v1/health`);
      expect(debug.lines().filter((l) => l.msg === 'request completed')).to.have.length(1).and.to.satisfy(
        (ls: { level: number; path: string; route: string }[]) => ls[0].level === 20 && ls[0].path === '/api/v1/health' && ls[0].route === '/api/v1/health',
      );
    } finally {
      await debug.close();
    }
    const warn = await serviceLoggingTo('warn');
    try {
      const api = new ApiClient(warn.url, await signLocalToken(TEST_JWT_SECRET, 'bob'));
      await api.createSession('quiet');
      expect(warn.output).to.deep.equal([]);
    } finally {
      await warn.close();
    }
  });

  it('writes to stdout by default, one JSON object per line that pino tools read (numeric level, epoch time, msg)', () => {
    const program = `import { PinoLogger } from './adapters/system/pino-logger.ts';
      const log = new PinoLogger({ level: 'info' });
      log.debug('hidden'); log.info('hello', { n: 1 }); log.error('failed', { authorization: 'Bearer abc' });`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).to.equal(0);
    expect(result.stderr).to.equal('');
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map(({ level, msg }) => ({ level, msg }))).to.deep.equal([{ level: 30, msg: 'hello' }, { level: 50, msg: 'failed' }]);
    expect(lines[0]).to.include({ n: 1 }).and.have.property('time').that.is.a('number');
    expect(lines[1].authorization).to.equal('[redacted]');
  });

});
