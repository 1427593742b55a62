import { answerPluginsModule } from './answer-plugins.module.js';
import { answeringModule } from './answering.module.js';
import { embeddedDenseModule } from './embedded-dense.module.js';
import { extractionModule } from './extraction.module.js';
import { filesModule } from './files.module.js';
import { identityModule } from './identity.module.js';
import { ingestionModule } from './ingestion.module.js';
import { modelsModule } from './models.module.js';
import { observabilityModule } from './observability.module.js';
import { recordsModule } from './records.module.js';
import { serviceModule } from './service.module.js';
import { useCasesModule } from './use-cases.module.js';
import { vectorsModule } from './vectors.module.js';

/**
 * The families the service is made of, and nothing else. The order is the order of configuration, binding and
 * start-up (shutdown is the reverse): records first (everything writes there), the ingest queue after text
 * extraction so that running jobs stop before the extraction processes and the database go.
 * Adding a family: write its module (server/modules/<family>.module.ts, see module.ts) and list it here.
 */
export const MODULES = [
  serviceModule,
  recordsModule,
  filesModule,
  answerPluginsModule,
  answeringModule,
  modelsModule,
  vectorsModule,
  embeddedDenseModule,
  identityModule,
  extractionModule,
  ingestionModule,
  observabilityModule,
  useCasesModule,
] as const;
