import { expect } from 'chai';
import { SignJWT } from 'jose';
import { UnauthenticatedError } from '../../core/domain/errors.js';
import type { IdentityVerifier } from '../../core/ports/identity-verifier.js';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';

export interface IdentitySubject {
  verifier: IdentityVerifier;
  /** The secret the identity provider signs with. */
  secret: string;
  cleanup(): Promise<void>;
}

async function expectUnauthenticated(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error, 'should have been refused').to.be.instanceOf(UnauthenticatedError);
}

/** Behaviour every IdentityVerifier must have, for tokens shaped as the identity provider issues them. */
export function identityVerifierContract(name: string, makeSubject: () => Promise<IdentitySubject>): void {
  describe(`IdentityVerifier contract: ${name}`, () => {
    let s: IdentitySubject;
    beforeEach(async () => {
      s = await makeSubject();
    });
    afterEach(async () => s.cleanup());

    it('resolves a valid token to its subject', async () => {
      const token = await signLocalToken(s.secret, 'user-123');
      expect(await s.verifier.verify(token)).to.deep.equal({ userId: 'user-123' });
    });

    it('refuses a token signed with another secret', async () => {
      await expectUnauthenticated(s.verifier.verify(await signLocalToken(`${s.secret}-not`, 'user-123')));
    });

    it('refuses an expired token', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('user-123')
        .setAudience('authenticated')
        .setIssuedAt(now - 7200)
        .setExpirationTime(now - 3600)
        .sign(new TextEncoder().encode(s.secret));
      await expectUnauthenticated(s.verifier.verify(token));
    });

    it('refuses malformed tokens', async () => {
      for (const token of ['garbage', 'a.b.c', '', 'eyJhbGciOiJIUzI1NiJ9.e30.']) await expectUnauthenticated(s.verifier.verify(token));
    });

    it('refuses a token whose signature was tampered with', async () => {
      const token = await signLocalToken(s.secret, 'user-123');
      const [h, p, sig] = token.split('.');
      const flipped = sig[0] === 'A' ? `B${sig.slice(1)}` : `A${sig.slice(1)}`;
      await expectUnauthenticated(s.verifier.verify([h, p, flipped].join('.')));
      // A payload swapped to another user keeps the old signature: refused.
      const forged = Buffer.from(JSON.stringify({ sub: 'admin', aud: 'authenticated', exp: Math.floor(Date.now() / 1000) + 60 })).toString('base64url');
      await expectUnauthenticated(s.verifier.verify([h, forged, sig].join('.')));
    });
  });
}
