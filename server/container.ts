import { Container } from 'inversify';
import type { DependencyProbe } from '../core/ports/health-check.js';
import type { Config } from './config.js';
import type { Lifecycle } from './modules/lifecycle.js';
import type { Given } from './modules/module.js';
import { MODULES } from './modules/index.js';
import { TOKENS } from './tokens.js';

export { TOKENS };

/**
 * The container of the families listed in server/modules/index.ts, each binding the adapters the configuration picks
 * and a Lifecycle for each one that starts, stops or can be probed. Core classes carry no decorators; everything is
 * built by factories, and SDK-backed adapters are imported only when configured (tests load the sources as ES modules
 * for this: see test/unit/server/module-identity.test.ts).
 */
export async function buildContainer(config: Config, given: Given = {}): Promise<Container> {
  const container = new Container({ defaultScope: 'Singleton' });
  for (const module of MODULES) {
    if (module.bindings) await container.load(await module.bindings(config, given));
  }
  return container;
}

/** Every registered Lifecycle, in start-up order. */
export function lifecyclesOf(container: Container): Lifecycle[] {
  return container.isBound(TOKENS.Lifecycle) ? container.getAll<Lifecycle>(TOKENS.Lifecycle) : [];
}

/** Readiness: every lifecycle with a probe, under its name. */
export function readinessProbes(container: Container): DependencyProbe[] {
  return lifecyclesOf(container).flatMap((lifecycle) => {
    const probe = lifecycle.probe?.bind(lifecycle);
    return probe ? [{ name: lifecycle.name, check: probe, whenDown: lifecycle.whenDown ?? 'unavailable' }] : [];
  });
}
