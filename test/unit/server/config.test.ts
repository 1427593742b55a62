import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../server/config.js';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return error as ConfigError;
  }
  return expect.fail('expected a ConfigError');
}

describe('configuration', () => {
  it('defaults to the embedded stack on port 3000', () => {
    const config = loadConfig({});
    expect(config.port).to.equal(3000);
    expect(config.publicUrl).to.equal('http://localhost:3000');
    expect(config.corsOrigins).to.equal('*');
    expect(config.auth).to.deep.equal({ kind: 'local', jwtSecret: undefined });
    expect([config.blobs.kind, config.index.kind, config.models.kind]).to.deep.equal(['local', 'sqlite', 'extractive']);
    expect(config.dataDir).to.match(/\/data$/);
  });

  it('switches each adapter by its variables', () => {
    const config = loadConfig({
      SUPABASE_URL: 'https://abc.supabase.co/', SUPABASE_ANON_KEY: 'anon',
      MINIO_ENDPOINT: 'http://minio:9000', MINIO_ACCESS_KEY: 'a', MINIO_SECRET_KEY: 'b', MINIO_PUBLIC_URL: 'https://files.example.com',
      CHROMA_URL: 'http://chroma:8000', OLLAMA_URL: 'http://ollama:11434', OLLAMA_CHAT_MODEL: 'qwen2.5:7b',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com',
    });
    expect(config.auth).to.deep.equal({ kind: 'supabase', url: 'https://abc.supabase.co', anonKey: 'anon' });
    expect(config.blobs).to.deep.include({ kind: 'minio', bucket: 'documents', publicUrl: 'https://files.example.com' });
    expect(config.index).to.deep.equal({ kind: 'chroma', url: 'http://chroma:8000', collection: 'doc_chat_chunks' });
    expect(config.models).to.deep.include({ kind: 'ollama', chatModel: 'qwen2.5:7b', embedModel: 'nomic-embed-text' });
    expect(config.corsOrigins).to.deep.equal(['https://a.example.com', 'https://b.example.com']);
  });

  it('names the variable of a wrong value', () => {
    expect(configError({ PORT: 'eighty' }).variable).to.equal('PORT');
    expect(configError({ PORT: '70000' }).variable).to.equal('PORT');
    expect(configError({ PUBLIC_URL: 'localhost:3000' }).variable).to.equal('PUBLIC_URL');
    expect(configError({ AUTH_JWT_SECRET: 'short' }).variable).to.equal('AUTH_JWT_SECRET');
    expect(configError({ CORS_ORIGINS: 'example.com' }).variable).to.equal('CORS_ORIGINS');
    expect(configError({ OLLAMA_URL: 'ftp://x' }).variable).to.equal('OLLAMA_URL');
    expect(configError({ MINIO_ENDPOINT: 'http://m:9000', MINIO_ACCESS_KEY: 'a', MINIO_SECRET_KEY: 'b', MINIO_BUCKET: 'Bad_Bucket' }).variable).to.equal('MINIO_BUCKET');
  });

  it('refuses partial settings, naming what is missing or stray', () => {
    expect(configError({ SUPABASE_URL: 'https://abc.supabase.co' }).variable).to.equal('SUPABASE_ANON_KEY');
    expect(configError({ MINIO_ENDPOINT: 'http://m:9000', MINIO_ACCESS_KEY: 'a' }).variable).to.equal('MINIO_SECRET_KEY');
    expect(configError({ MINIO_BUCKET: 'docs' }).variable).to.equal('MINIO_BUCKET');
    expect(configError({ OLLAMA_CHAT_MODEL: 'llama3' }).variable).to.equal('OLLAMA_CHAT_MODEL');
    expect(configError({ CHROMA_URL: 'http://chroma:8000' }).message).to.match(/^CHROMA_URL: needs OLLAMA_URL/);
    expect(configError({ CHROMA_COLLECTION: 'abc' }).variable).to.equal('CHROMA_COLLECTION');
  });

  it('reads the extraction limits, with defaults, naming the variable of a wrong value', () => {
    expect(loadConfig({}).extraction).to.deep.equal({
      maxPages: 10_000, maxOcrPages: 100, pageTimeoutMs: 120_000, msPerPage: 5_000, maxPdfImagePixels: 50_000_000,
      maxMemoryMb: 1_024, recycleAfterPages: 5_000, idleMs: 30_000,
    });
    const config = loadConfig({ MAX_DOCUMENT_PAGES: '500', MAX_OCR_PAGES: '20', EXTRACTION_IDLE_MS: '1000', EXTRACTION_MAX_MEMORY_MB: '512' });
    expect(config.extraction).to.deep.include({ maxPages: 500, maxOcrPages: 20, idleMs: 1000, maxMemoryMb: 512 });
    expect(configError({ MAX_DOCUMENT_PAGES: '0' }).variable).to.equal('MAX_DOCUMENT_PAGES');
    expect(configError({ MAX_OCR_PAGES: 'many' }).variable).to.equal('MAX_OCR_PAGES');
    expect(configError({ EXTRACTION_PAGE_TIMEOUT_MS: '-5' }).variable).to.equal('EXTRACTION_PAGE_TIMEOUT_MS');
    expect(configError({ EXTRACTION_MS_PER_PAGE: '1.5' }).variable).to.equal('EXTRACTION_MS_PER_PAGE');
    expect(configError({ PDF_MAX_IMAGE_PIXELS: 'x' }).variable).to.equal('PDF_MAX_IMAGE_PIXELS');
    expect(configError({ EXTRACTION_MAX_MEMORY_MB: '64' }).message).to.equal('EXTRACTION_MAX_MEMORY_MB: must be at least 128 (got "64")');
    expect(configError({ EXTRACTION_RECYCLE_PAGES: '0' }).variable).to.equal('EXTRACTION_RECYCLE_PAGES');
    expect(configError({ EXTRACTION_IDLE_MS: 'soon' }).variable).to.equal('EXTRACTION_IDLE_MS');
  });

  it('treats empty values as unset (compose passes empty strings)', () => {
    expect(loadConfig({ SUPABASE_URL: '', SUPABASE_ANON_KEY: '', AUTH_JWT_SECRET: '' }).auth.kind).to.equal('local');
  });
});
