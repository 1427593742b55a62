import { createExtractiveAnswerer } from '../../adapters/answer-plugins/index.js';
import { ExtractiveAnswerer } from '../../adapters/extractive/extractive-answerer.js';
import { llmContract } from './llm.contract.js';

llmContract('ExtractiveAnswerer (no plug-ins)', () => ({ llm: new ExtractiveAnswerer() }));
llmContract('ExtractiveAnswerer with the default plug-ins (the embedded default)', () => ({ llm: createExtractiveAnswerer() }));
