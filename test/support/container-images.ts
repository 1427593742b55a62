/**
 * The images the Testcontainers suites run against. docker-compose.yml pins the same tags, and the README's table of
 * services names them, so the stack deployed is the one tested (test/architecture/deployment-files.test.ts checks all
 * three). Change a version here, in the compose file and in the README's table. Each is an exact release tag; renovate
 * (renovate.json) proposes new tags and pins digests where a registry answers.
 */

/**
 * The object store: SeaweedFS, all-in-one (`weed mini`: master, volume, filer and S3 servers in one process). Plain S3
 * on OBJECT_STORE_S3_PORT; credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, which make every request signed.
 */
export const OBJECT_STORE_IMAGE = 'chrislusf/seaweedfs:4.56';
export const OBJECT_STORE_S3_PORT = 8333;
/**
 * How compose and the suite start it: data under /data, no anonymous usage report to seaweedfs.com (the stack
 * calls nowhere), no WebDAV server (it would serve the files without S3's signatures) and no admin web UI.
 */
export const OBJECT_STORE_COMMAND = ['mini', '-dir=/data', '-master.telemetry=false', '-webdav=false', '-admin.ui=false'] as const;

/** Keep it a 1.x server: the chromadb v3 client speaks the v2 API. */
export const CHROMA_IMAGE = 'chromadb/chroma:1.5.9';
export const OLLAMA_IMAGE = 'ollama/ollama:0.35.1';
/**
 * The database of the scaled deployment (DATABASE_URL): records, the lexical index and the shared job queue. Major 17
 * (a new major needs a dump and restore of the volume) on Debian bookworm (another glibc could reorder collations).
 */
export const POSTGRES_IMAGE = 'postgres:17.12-bookworm';
