/**
 * `doc-chat/testing`: the port contract suites the project's own adapters pass, for someone writing their own
 * adapter. Each suite is a function that declares mocha tests (describe/it) with chai expectations: call it from a
 * test file run by mocha (both are optional peer dependencies). The fakes are the in-memory reference
 * implementations the suites are also run against; they serve to wire the core around the one adapter under test.
 * Re-exported from test/ so that the project's own tests and this entry can never differ.
 */
export * from '../test/contracts/blob-store.contract.js';
export * from '../test/contracts/document-classifier.contract.js';
export * from '../test/contracts/document-reader.contract.js';
export * from '../test/contracts/embedder.contract.js';
export * from '../test/contracts/identity-verifier.contract.js';
export * from '../test/contracts/job-queue.contract.js';
export * from '../test/contracts/llm.contract.js';
export * from '../test/contracts/logger.contract.js';
export * from '../test/contracts/page-renderer.contract.js';
export * from '../test/contracts/record-search.contract.js';
export * from '../test/contracts/repos.contract.js';
export * from '../test/contracts/upload-repo.contract.js';
export * from '../test/contracts/vector-index.contract.js';

export { FakeDocumentReader } from '../test/fakes/fake-document-reader.js';
export { ManualClock, RecordingLogger, SequentialIds } from '../test/fakes/fixed-clock-and-ids.js';
export { HashingEmbedder, type HashingEmbedderOptions } from '../test/fakes/hashing-embedder.js';
export { InMemoryBlobStore } from '../test/fakes/in-memory-blob-store.js';
export { InMemoryChatRepo, InMemoryIngestJobRepo, InMemorySessionEraser, InMemorySessionRepo } from '../test/fakes/in-memory-repos.js';
export { InMemoryUploadRepo } from '../test/fakes/in-memory-upload-repo.js';
export { InMemoryVectorIndex, type InMemoryVectorIndexOptions } from '../test/fakes/in-memory-vector-index.js';
export { ScriptedLlm, type ScriptedLlmOptions, type ScriptedReply } from '../test/fakes/scripted-llm.js';
