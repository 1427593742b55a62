import { getContainerRuntimeClient } from 'testcontainers';

/**
 * For the before hook of a Testcontainers suite: skips the suite, saying why, where no container runtime
 * (Docker/Podman) answers. `what` names the server the suite would start.
 */
export async function skipWithoutContainerRuntime(suite: Mocha.Context, what: string): Promise<void> {
  try {
    await getContainerRuntimeClient();
  } catch (error) {
    console.log(`      (skipped: no container runtime found, so ${what} cannot be started: ${error instanceof Error ? error.message : String(error)})`);
    suite.skip();
  }
}
