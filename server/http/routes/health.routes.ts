import Router from '@koa/router';
import type { DependencyProbe } from '../../../core/ports/health-check.js';
import type { Logger } from '../../../core/ports/logger.js';

const PROBE_TIMEOUT_MS = 3000;

/**
 * Liveness (`up`, the spec's bare text) and readiness (every configured dependency answers). Neither needs a token,
 * so readiness names what is down and nothing more: a probe's error (hosts, addresses, paths) goes to the log only.
 * A dependency the service can answer without (its probe's `whenDown` is 'degraded', e.g. the vector index) makes it
 * "degraded" with 200, so a load balancer keeps the instance in rotation; any other one down makes it 503.
 */
export function healthRoutes(probes: DependencyProbe[], logger: Logger): Router {
  const router = new Router();

  router.get('/health', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'up';
  });

  router.get('/health/ready', async (ctx) => {
    const results = await Promise.all(
      probes.map(async (probe) => {
        try {
          await withTimeout(probe.check(), PROBE_TIMEOUT_MS);
          return { name: probe.name, ok: true };
        } catch (error) {
          logger.warn('readiness probe failed', { dependency: probe.name, error: error instanceof Error ? error.message : String(error) });
          return { name: probe.name, ok: false };
        }
      }),
    );
    const down = probes.filter((_, i) => !results[i].ok);
    const unavailable = down.filter((probe) => probe.whenDown !== 'degraded').map((probe) => probe.name);
    const degraded = down.filter((probe) => probe.whenDown === 'degraded').map((probe) => probe.name);
    ctx.status = unavailable.length === 0 ? 200 : 503;
    ctx.body = {
      status: unavailable.length > 0 ? 'unavailable' : degraded.length > 0 ? 'degraded' : 'ready',
      ...(unavailable.length > 0 && { unavailable }),
      ...(degraded.length > 0 && { degraded }),
      dependencies: results,
    };
  });

  return router;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
