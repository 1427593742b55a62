export interface Identity {
  userId: string;
}

/** Resolves a bearer token to a user. Throws UnauthenticatedError for a bad token, UpstreamUnavailableError when the provider cannot be asked. */
export interface IdentityVerifier {
  verify(token: string): Promise<Identity>;
}
