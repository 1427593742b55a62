/**
 * The image tags the Testcontainers suites run against. docker-compose.yml pins the same tags, so the stack deployed is
 * the one tested (test/architecture/deployment-files.test.ts checks it). Change a version here and in the compose file.
 */
export const MINIO_IMAGE = 'minio/minio:RELEASE.2024-05-28T17-19-04Z';
/** Keep it a 1.x server: the chromadb v3 client speaks the v2 API. */
export const CHROMA_IMAGE = 'chromadb/chroma:1.0.16';
export const OLLAMA_IMAGE = 'ollama/ollama:0.12.6';
/** The database of the scaled deployment (DATABASE_URL): records, the lexical index and the shared job queue. */
export const POSTGRES_IMAGE = 'postgres:17.2-bookworm';
