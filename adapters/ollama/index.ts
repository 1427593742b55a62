/** `doc-chat/adapters/ollama`: an Embedder and an Llm served by Ollama. */
export { OllamaEmbedder, type OllamaEmbedderOptions } from './ollama-embedder.js';
export { OllamaLlm, type OllamaLlmOptions } from './ollama-llm.js';
