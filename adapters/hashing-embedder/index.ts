/** `doc-chat/adapters/hashing-embedder`: embeddings by feature hashing, in-process, without a model. */
export { DEFAULT_HASHING_DIMENSIONS, HashingEmbedder } from './hashing-embedder.js';
