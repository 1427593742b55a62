/** `doc-chat/adapters/chroma`: a dense VectorIndex on a Chroma server. */
export { ChromaVectorIndex, type ChromaVectorIndexOptions } from './chroma-vector-index.js';
