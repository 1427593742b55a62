import fs from 'node:fs';
import path from 'node:path';
import { startTestService } from '../test/support/test-service.js';
const t = await startTestService({}, process.env.KEEP);
try {
  const api = await t.as('u');
  const s = await api.createSession('x');
  for (const f of (process.env.DOCS ?? '').split(',')) {
    const type = f.endsWith('.jpg') ? 'image/jpeg' : 'application/pdf';
    const { jobId } = await api.uploadAndIngest(s, path.basename(f), fs.readFileSync('/work/shared/data/' + f), type);
    const job = await api.waitForJob(jobId, 300_000);
    console.log(f, job.status, job.pages, job.chunks, job.error ?? '');
  }
  for (const q of (process.env.QS ?? '').split('|').filter(Boolean)) {
    const r = await api.ask(s, q);
    console.log(`\nQ: ${q}\nA: ${r.body.data}`);
  }
} finally { await t.close(); }
