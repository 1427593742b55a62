import { NotFoundError } from '../domain/errors.js';
import type { IngestJob } from '../domain/model.js';
import type { IngestJobRepo } from '../ports/ingest-job-repo.js';

export const INGEST_JOB_NOT_FOUND = 'Ingest job not found';

export class GetIngestJob {
  constructor(private readonly jobs: IngestJobRepo) {}

  async execute(input: { userId: string; jobId: string }): Promise<IngestJob> {
    const job = await this.jobs.findById(input.jobId);
    if (!job || job.userId !== input.userId) throw new NotFoundError(INGEST_JOB_NOT_FOUND);
    return job;
  }
}
