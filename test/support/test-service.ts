import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { RecordingLogger } from '../fakes/fixed-clock-and-ids.js';
import { loadConfig } from '../../server/config.js';
import { startService, type RunningService } from '../../server/service.js';
import { ApiClient } from './api-client.js';
import { freePort } from './free-port.js';

export const TEST_JWT_SECRET = 'end-to-end-test-secret-0123456789abcdef';

export interface TestService {
  service: RunningService;
  baseUrl: string;
  dataDir: string;
  env: Record<string, string>;
  logger: RecordingLogger;
  /** A client authenticated as `userId`. */
  as(userId: string): Promise<ApiClient>;
  anonymous: ApiClient;
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** Starts the real service (embedded defaults unless `env` says otherwise) on 127.0.0.1 with a fresh data dir. */
export async function startTestService(env: Record<string, string> = {}, dataDir?: string): Promise<TestService> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-test-'));
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const fullEnv: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    ...env,
  };
  const logger = new RecordingLogger();
  const service = await startService(loadConfig(fullEnv), { logger });
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    service,
    baseUrl,
    dataDir: dir,
    env: fullEnv,
    logger,
    anonymous: new ApiClient(baseUrl),
    as: async (userId) => new ApiClient(baseUrl, await signLocalToken(TEST_JWT_SECRET, userId)),
    close: async (options) => {
      await service.close();
      if (!options?.keepData && !dataDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
