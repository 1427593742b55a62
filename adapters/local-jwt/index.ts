/** `doc-chat/adapters/local-jwt`: an IdentityVerifier for HS256 tokens signed with a shared secret. */
export { AUTHENTICATED_AUDIENCE, LocalJwtVerifier, signLocalToken, type LocalJwtOptions } from './local-jwt-verifier.js';
