import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { describeWithPostgres, sharedPostgresCluster } from '../support/postgres-cluster.js';
import { startS3Server, type S3Server } from '../support/s3-server.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-processes.js';

/** A worker process (ROLE=worker) on PostgreSQL and the S3 server: what it says at start, and where it is scraped. */
describeWithPostgres('a worker process (ROLE=worker)', () => describe('a worker process (ROLE=worker)', () => {
  it('logs that it started, with its role and metrics port, never that it listens; its metrics answer there', async function () {
    this.timeout(120_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-worker-start-'));
    const cluster = sharedPostgresCluster();
    let s3: S3Server | undefined;
    let databaseUrl: string | undefined;
    let worker: ServiceProcess | undefined;
    try {
      s3 = await startS3Server();
      databaseUrl = await cluster.createDatabase('worker_start');
      worker = await startServiceProcess('worker', {
        ROLE: 'worker', DATABASE_URL: databaseUrl, DATA_DIR: dataDir, HOST: '127.0.0.1', METRICS_PORT: '0',
        S3_ENDPOINT: s3.url, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: 'worker-start',
      });
      const lines = worker.output().trim().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
      const started = lines.find((line) => line.msg === 'doc-chat worker started');
      expect(started, worker.output()).to.include({ level: 30, role: 'worker', records: 'postgres', blobs: 's3' });
      expect(started).to.not.have.property('port');
      expect(started).to.not.have.property('auth');
      expect(started!.metricsPort).to.be.a('number').above(0);
      expect(lines.filter((line) => line.msg === 'doc-chat listening')).to.deep.equal([]);
      const scrape = await fetch(`http://127.0.0.1:${started!.metricsPort}/metrics`);
      expect(scrape.status).to.equal(200);
      expect(await scrape.text()).to.include('doc_chat_');
      expect(await worker.stop('SIGTERM')).to.equal(0);
    } finally {
      if (worker?.running) await worker.stop('SIGKILL');
      await s3?.stop();
      if (databaseUrl) await cluster.dropDatabase(databaseUrl);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}));
