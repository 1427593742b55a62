/** `doc-chat/adapters/supabase`: an IdentityVerifier asking a Supabase project who a token belongs to. */
export { SupabaseIdentityVerifier, type SupabaseIdentityOptions } from './supabase-identity-verifier.js';
