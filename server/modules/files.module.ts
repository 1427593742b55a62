import path from 'node:path';
import { ContainerModule } from 'inversify';
import * as v from 'valibot';
import type { BlobStore } from '../../core/ports/blob-store.js';
import type { StorageSpace } from '../../core/ports/storage-space.js';
import { LocalBlobStore } from '../../adapters/local-blob/local-blob-store.js';
import { countDependencyErrors, type ServiceMetrics } from '../../adapters/prometheus/index.js';
import { loadOrCreateSecret } from '../../adapters/system/secret-file.js';
import { localUploadRouter, UPLOAD_PATH_PREFIX } from '../http/routes/local-upload.routes.js';
import { optional, setting } from '../config/variables.js';
import { httpUrl, positiveInt, text } from '../config/schemas.js';
import { DEFAULT_ATTACHMENT_SETTINGS, DOCUMENT_TYPES, EXTRA_DOCUMENT_TYPES } from '../../core/index.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';
import type { ServiceModule } from './module.js';

// Named for what the service speaks (plain S3, to any S3-compatible server); the MINIO_* names they had are still read.
export const S3_ENDPOINT = optional('S3_ENDPOINT', httpUrl, 'S3-compatible server for uploaded files (unset: local disk in DATA_DIR); needs the two keys', { defaultText: '(local disk)', aliases: ['MINIO_ENDPOINT'] });
const S3_ACCESS_KEY = optional('S3_ACCESS_KEY', text, 'Access key for S3_ENDPOINT', { aliases: ['MINIO_ACCESS_KEY'] });
const S3_SECRET_KEY = optional('S3_SECRET_KEY', text, 'Secret key for S3_ENDPOINT', { secret: true, aliases: ['MINIO_SECRET_KEY'] });
const S3_BUCKET = setting('S3_BUCKET', v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name (3-63 lower-case letters, digits, . -)')), 'documents', 'Bucket of uploaded files (made at start if missing)', { aliases: ['MINIO_BUCKET'] });
const S3_PUBLIC_URL = optional('S3_PUBLIC_URL', httpUrl, 'Where clients reach the S3 server, when another name than S3_ENDPOINT (presigned URLs)', { defaultText: 'S3_ENDPOINT', aliases: ['MINIO_PUBLIC_URL'] });
const USER_STORAGE_QUOTA_BYTES = setting('USER_STORAGE_QUOTA_BYTES', positiveInt(Number.MAX_SAFE_INTEGER), 1_073_741_824, 'Bytes of uploaded files one user may hold');
const MAX_PENDING_UPLOADS = setting('MAX_PENDING_UPLOADS', positiveInt(100_000), 20, 'Upload URLs one user may hold that were not yet ingested');
/** MIME types separated by commas, `all` (every type a reader exists for) or `none`; a type no reader takes stops the start. */
const typeList = v.pipe(
  v.string(),
  v.transform((raw) => {
    const value = raw.trim().toLowerCase();
    if (value === 'all') return [...EXTRA_DOCUMENT_TYPES];
    return value === 'none' ? [] : [...new Set(value.split(',').map((type) => type.trim()).filter(Boolean))];
  }),
  v.check(
    (types) => types.every((type) => Object.hasOwn(DOCUMENT_TYPES, type)),
    (issue) => `"${(issue.input as string[]).find((type) => !Object.hasOwn(DOCUMENT_TYPES, type))}" has no reader: use all, none or some of ${EXTRA_DOCUMENT_TYPES.join(', ')}`,
  ),
);
const ACCEPTED_TYPES = setting('ACCEPTED_TYPES', typeList, [] as string[], 'File types uploads may have beyond the API contract\'s PDF and JPEG (comma-separated MIME types, all, or none): Word, Excel, PowerPoint, HTML, Markdown, text, CSV, e-mail, PNG, WebP, TIFF, HEIC', {
  defaultText: 'none',
});
// Each attachment taken is a stored file and a job in the user's queue: bounded so one mail cannot flood either.
const MAX_MAIL_ATTACHMENTS = setting('MAX_MAIL_ATTACHMENTS', positiveInt(1_000), DEFAULT_ATTACHMENT_SETTINGS.maxPerMail, 'Attachments of one e-mail ingested as documents of their own (each a stored file and a job in the user\'s queue); later ones are only named in the mail');
const MAX_MAIL_DEPTH = setting('MAX_MAIL_DEPTH', positiveInt(10), DEFAULT_ATTACHMENT_SETTINGS.maxDepth, 'How deep e-mails attached to e-mails are followed: 1 ingests a mail\'s attachments but not those of a mail among them');
// At most a day, so a sweep cannot be configured away by accident.
const UPLOAD_SWEEP_INTERVAL_MS = setting('UPLOAD_SWEEP_INTERVAL_MS', positiveInt(86_400_000), 600_000, 'How often uploads never ingested are removed once their URL expired');

export interface FilesSection {
  blobs: { kind: 'local' } | { kind: 's3'; endpoint: string; accessKey: string; secretKey: string; bucket: string; publicUrl?: string };
  /** Per-user limits on uploads (USER_STORAGE_QUOTA_BYTES, MAX_PENDING_UPLOADS). */
  uploadLimits: { storageQuotaBytes: number; maxPendingUploads: number };
  /** File types taken beyond the contract's three (ACCEPTED_TYPES). */
  acceptedTypes: string[];
  /** How often uploads never ingested are swept (UPLOAD_SWEEP_INTERVAL_MS). */
  uploadSweepIntervalMs: number;
  /** An e-mail's attachments taken as documents of their own (MAX_MAIL_ATTACHMENTS, MAX_MAIL_DEPTH). */
  mailAttachments: { maxPerMail: number; maxDepth: number };
}

/** The raw local store, for its upload receiver (TOKENS.BlobStore holds it wrapped for metrics). */
const LOCAL_STORE = Symbol('LocalBlobStore');

/** Uploaded files: on local disk behind signed URLs the app serves itself, or on an S3 server with presigned URLs. */
export const filesModule: ServiceModule<FilesSection> = {
  family: 'files',
  variables: [S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET, S3_PUBLIC_URL, USER_STORAGE_QUOTA_BYTES, MAX_PENDING_UPLOADS, UPLOAD_SWEEP_INTERVAL_MS, ACCEPTED_TYPES, MAX_MAIL_ATTACHMENTS, MAX_MAIL_DEPTH],
  configure(env): FilesSection {
    const limits = {
      uploadLimits: { storageQuotaBytes: env.read(USER_STORAGE_QUOTA_BYTES), maxPendingUploads: env.read(MAX_PENDING_UPLOADS) },
      uploadSweepIntervalMs: env.read(UPLOAD_SWEEP_INTERVAL_MS),
      acceptedTypes: env.read(ACCEPTED_TYPES),
      mailAttachments: { maxPerMail: env.read(MAX_MAIL_ATTACHMENTS), maxDepth: env.read(MAX_MAIL_DEPTH) },
    };
    if (!env.together([S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY])) {
      env.forbidWithout([S3_BUCKET, S3_PUBLIC_URL], S3_ENDPOINT);
      return { blobs: { kind: 'local' }, ...limits };
    }
    return {
      blobs: {
        kind: 's3',
        endpoint: env.read(S3_ENDPOINT)!,
        accessKey: env.read(S3_ACCESS_KEY)!,
        secretKey: env.read(S3_SECRET_KEY)!,
        bucket: env.read(S3_BUCKET),
        publicUrl: env.read(S3_PUBLIC_URL),
      },
      ...limits,
    };
  },
  async bindings(config) {
    const blobs = config.blobs;
    if (blobs.kind === 's3') {
      // Imported only when configured: the minio client alone costs ~40 MB of resident memory.
      const { S3BlobStore } = await import('../../adapters/s3/s3-blob-store.js');
      const store = new S3BlobStore({
        endpoint: blobs.endpoint, accessKey: blobs.accessKey, secretKey: blobs.secretKey, bucket: blobs.bucket, publicUrl: blobs.publicUrl,
      });
      return new ContainerModule(({ bind }) => {
        bind<BlobStore>(TOKENS.BlobStore).toDynamicValue((ctx) => countDependencyErrors(store, ctx.get<ServiceMetrics>(TOKENS.Metrics), 's3'));
        bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue({ name: 'object storage (S3)', init: () => store.init(), probe: () => store.check() });
      });
    }
    return new ContainerModule(({ bind }) => {
      bind<LocalBlobStore>(LOCAL_STORE).toDynamicValue(
        () => new LocalBlobStore({
          directory: path.join(config.dataDir, 'blobs'),
          publicUrl: config.publicUrl,
          secret: loadOrCreateSecret(path.join(config.dataDir, 'upload-signing-secret')),
        }),
      );
      bind<BlobStore>(TOKENS.BlobStore).toDynamicValue((ctx) => countDependencyErrors(ctx.get<LocalBlobStore>(LOCAL_STORE), ctx.get<ServiceMetrics>(TOKENS.Metrics), 'local'));
      // Its folders are made at init; it is the app's own disk, so readiness does not list it.
      bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => ({ name: 'file storage (local disk)', init: () => ctx.get<LocalBlobStore>(LOCAL_STORE).init() }));
    });
  },
  // Local files arrive at this app (PUT /uploads/...), with the long upload timeout; an S3 server receives its own.
  http: (container, config) => {
    if (config.blobs.kind !== 'local') return undefined;
    return {
      routers: [localUploadRouter(container.get<LocalBlobStore>(LOCAL_STORE), container.get<StorageSpace>(TOKENS.StorageSpace))],
      isLongBody: (req) => req.method === 'PUT' && (req.url ?? '').toLowerCase().startsWith(UPLOAD_PATH_PREFIX),
    };
  },
  started: (config) => ({ blobs: config.blobs.kind, acceptedTypes: config.acceptedTypes.join(',') || 'contract only' }),
};
