import { ExtractiveAnswerer } from '../../adapters/extractive/extractive-answerer.js';
import { llmContract } from './llm.contract.js';

llmContract('ExtractiveAnswerer (the embedded default)', () => ({ llm: new ExtractiveAnswerer() }));
