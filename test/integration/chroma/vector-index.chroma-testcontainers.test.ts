import { randomUUID } from 'node:crypto';
import { ChromaClient } from 'chromadb';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { ChromaVectorIndex } from '../../../adapters/chroma/chroma-vector-index.js';
import { vectorIndexContract } from '../../contracts/vector-index.contract.js';
import { CHROMA_IMAGE } from '../../support/container-images.js';
import { skipWithoutContainerRuntime } from '../../support/container-runtime.js';

/** The server image docker-compose.yml also pins; the CHROMA_IMAGE variable overrides it (keep it a 1.x server). */
const IMAGE = process.env.CHROMA_IMAGE ?? CHROMA_IMAGE;

describe(`ChromaVectorIndex against the ${IMAGE} container (Testcontainers)`, function () {
  this.timeout(180_000);
  let container: StartedTestContainer | undefined;
  let host = '';
  let port = 0;

  before(async function () {
    await skipWithoutContainerRuntime(this, 'Chroma (the chromadb-package server suite covers Chroma here)');
    container = await new GenericContainer(IMAGE)
      .withExposedPorts(8000)
      .withWaitStrategy(Wait.forHttp('/api/v2/heartbeat', 8000).forStatusCode(200))
      .withStartupTimeout(120_000)
      .start();
    host = container.getHost();
    port = container.getMappedPort(8000);
  });

  after(async function () {
    await container?.stop();
  });

  vectorIndexContract('ChromaVectorIndex (container)', async () => {
    const collection = `contract-${randomUUID()}`;
    const index = new ChromaVectorIndex({ url: `http://${host}:${port}`, collection });
    await index.init();
    return {
      index,
      cleanup: async () => {
        await new ChromaClient({ host, port }).deleteCollection({ name: collection });
      },
    };
  });
});
