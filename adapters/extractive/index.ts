/** `doc-chat/adapters/extractive`: an Llm that answers with sentences taken from the passages (no model needed). */
export { ExtractiveAnswerer } from './extractive-answerer.js';
export { isWeakMatchAnswer } from './absent-names.js';
