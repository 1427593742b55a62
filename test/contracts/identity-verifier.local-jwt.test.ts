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

describe('LocalJwtVerifier: remembered tokens', () => {
  const key = new TextEncoder().encode(SECRET);
  const refused = (p: Promise<unknown>) => p.then(() => expect.fail('accepted'), (e) => expect(e).to.be.instanceOf(UnauthenticatedError));
  /** A clock the test moves; tokens are signed against it, so jose and the cache see the same time. */
  const clock = () => {
    let ms = Date.UTC(2030, 0, 1);
    return { now: () => ms, advance: (by: number) => (ms += by) };
  };
  const token = (sub: string, expSeconds: number, issuedAt: number) =>
    new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setAudience('authenticated')
      .setIssuedAt(Math.floor(issuedAt / 1000)).setExpirationTime(expSeconds).sign(key);

  it('answers a token it accepted from memory, and never past the token\'s exp', async () => {
    const time = clock();
    const verifier = new LocalJwtVerifier(SECRET, { now: time.now, cacheTtlMs: 60_000 });
    const expiresIn5s = await token('u', time.now() / 1000 + 5, time.now());
    expect(await verifier.verify(expiresIn5s)).to.deep.equal({ userId: 'u' });
    expect(verifier.remembers(expiresIn5s)).to.equal(true);
    time.advance(4_999);
    expect(await verifier.verify(expiresIn5s)).to.deep.equal({ userId: 'u' });
    time.advance(1); // exactly exp: jose refuses from here on, and so must the cache
    expect(verifier.remembers(expiresIn5s)).to.equal(false);
    await refused(verifier.verify(expiresIn5s));
    time.advance(60_000);
    await refused(verifier.verify(expiresIn5s));
  });

  it('checks a long-lived token again once the TTL has passed', async () => {
    const time = clock();
    const verifier = new LocalJwtVerifier(SECRET, { now: time.now, cacheTtlMs: 1_000 });
    const dayLong = await token('u', time.now() / 1000 + 86_400, time.now());
    await verifier.verify(dayLong);
    time.advance(999);
    expect(verifier.remembers(dayLong)).to.equal(true);
    time.advance(1);
    expect(verifier.remembers(dayLong)).to.equal(false);
    expect(await verifier.verify(dayLong)).to.deep.equal({ userId: 'u' }); // checked again, then remembered again
    expect(verifier.remembers(dayLong)).to.equal(true);
  });

  it('holds at most maxCacheEntries tokens, forgetting the least recently used', async () => {
    const time = clock();
    const verifier = new LocalJwtVerifier(SECRET, { now: time.now, maxCacheEntries: 2 });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((sub) => token(sub, time.now() / 1000 + 3600, time.now())));
    await verifier.verify(a);
    await verifier.verify(b);
    await verifier.verify(a); // a is now the most recently used
    expect(await verifier.verify(c)).to.deep.equal({ userId: 'c' });
    expect(verifier.rememberedCount).to.equal(2);
    expect([verifier.remembers(a), verifier.remembers(b), verifier.remembers(c)]).to.deep.equal([true, false, true]);
    expect(await verifier.verify(b)).to.deep.equal({ userId: 'b' }); // forgotten is not refused: checked again
  });

  it('never remembers a refused token, and a remembered one does not vouch for a tampered copy', async () => {
    const time = clock();
    const verifier = new LocalJwtVerifier(SECRET, { now: time.now });
    const good = await token('user-1', time.now() / 1000 + 3600, time.now());
    const [h, , sig] = good.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'admin', aud: 'authenticated', exp: time.now() / 1000 + 3600 })).toString('base64url')}.${sig}`;
    const otherSecret = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setAudience('authenticated')
      .setExpirationTime(time.now() / 1000 + 3600).sign(new TextEncoder().encode(`${SECRET}-not`));
    const expired = await token('u', time.now() / 1000 - 1, time.now() - 3_600_000);
    const notYetValid = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setAudience('authenticated')
      .setNotBefore(time.now() / 1000 + 600).setExpirationTime(time.now() / 1000 + 3600).sign(key);
    const bad = [forged, otherSecret, expired, notYetValid, 'garbage'];
    expect(await verifier.verify(good)).to.deep.equal({ userId: 'user-1' });
    for (let round = 0; round < 2; round++) for (const token of bad) await refused(verifier.verify(token));
    expect(bad.map((t) => verifier.remembers(t))).to.deep.equal([false, false, false, false, false]);
    expect(verifier.rememberedCount).to.equal(1);
    // The not-yet-valid token is accepted once its time comes: refusals were not remembered.
    time.advance(600_000);
    expect(await verifier.verify(notYetValid)).to.deep.equal({ userId: 'u' });
  });
});
