/** `doc-chat/adapters/blob-shared`: the upload-request checks both blob stores apply, for a blob store of your own. */
export { checkMaxBytes, checkUploadUrlRequest, DEFAULT_MAX_UPLOAD_BYTES, MAX_EXPIRES_IN_SECONDS } from './upload-request.js';
export { errorCode } from './error-code.js';
