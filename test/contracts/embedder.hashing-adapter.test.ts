import { HashingEmbedder } from '../../adapters/hashing-embedder/index.js';
import { embedderContract } from './embedder.contract.js';

embedderContract('HashingEmbedder (adapters/hashing-embedder, EMBEDDED_DENSE=on)', () => ({ embedder: new HashingEmbedder() }));
