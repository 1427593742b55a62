import { HashingEmbedder } from '../fakes/hashing-embedder.js';
import { embedderContract } from './embedder.contract.js';

embedderContract('HashingEmbedder (the tests’ stand-in for a model)', () => ({ embedder: new HashingEmbedder() }));
