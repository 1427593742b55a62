import { expect } from 'chai';
import { SignJWT } from 'jose';
import { LocalJwtVerifier, signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { UnauthenticatedError } from '../../core/domain/errors.js';
import { identityVerifierContract } from './identity-verifier.contract.js';

const SECRET = 'a-local-secret-that-is-long-enough-0123456789';

identityVerifierContract('LocalJwtVerifier', async () => ({
  verifier: new LocalJwtVerifier(SECRET),
  secret: SECRET,
  cleanup: async () => {},
}));

describe('LocalJwtVerifier specifics', () => {
  const verifier = new LocalJwtVerifier(SECRET);
  const refused = (p: Promise<unknown>) => p.then(() => expect.fail('accepted'), (e) => expect(e).to.be.instanceOf(UnauthenticatedError));

  it('refuses a token for another audience', async () => refused(verifier.verify(await signLocalToken(SECRET, 'u', { audience: 'anon' }))));

  it('refuses tokens without exp or sub, and other algorithms', async () => {
    const key = new TextEncoder().encode(SECRET);
    await refused(verifier.verify(await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setAudience('authenticated').sign(key)));
    await refused(verifier.verify(await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setAudience('authenticated').setExpirationTime('1h').sign(key)));
    await refused(verifier.verify(await new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).setSubject('u').setAudience('authenticated').setExpirationTime('1h').sign(key)));
  });
});
