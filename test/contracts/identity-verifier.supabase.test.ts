import { expect } from 'chai';
import { signLocalToken } from '../../adapters/local-jwt/local-jwt-verifier.js';
import { SupabaseIdentityVerifier } from '../../adapters/supabase/supabase-identity-verifier.js';
import { UnauthenticatedError, UpstreamUnavailableError } from '../../core/domain/errors.js';
import { FakeSupabaseAuth } from '../support/fake-supabase-auth.js';
import { identityVerifierContract } from './identity-verifier.contract.js';

const SECRET = 'supabase-project-jwt-secret-0123456789abcdef';

identityVerifierContract('SupabaseIdentityVerifier against an HTTP auth server', async () => {
  const provider = new FakeSupabaseAuth(SECRET);
  await provider.start();
  return {
    verifier: new SupabaseIdentityVerifier({ url: provider.url, anonKey: provider.anonKey }),
    secret: SECRET,
    cleanup: () => provider.stop(),
  };
});

describe('SupabaseIdentityVerifier specifics', () => {
  let provider: FakeSupabaseAuth;
  beforeEach(async () => {
    provider = new FakeSupabaseAuth(SECRET);
    await provider.start();
  });
  afterEach(() => provider.stop());

  it('asks the provider once for a burst of requests with one token', async () => {
    const verifier = new SupabaseIdentityVerifier({ url: provider.url, anonKey: provider.anonKey });
    const token = await signLocalToken(SECRET, 'burst-user');
    const results = await Promise.all(Array.from({ length: 10 }, () => verifier.verify(token)));
    for (let i = 0; i < 5; i++) results.push(await verifier.verify(token));
    expect(results.every((r) => r.userId === 'burst-user')).to.equal(true);
    expect(provider.calls).to.equal(1);
  });

  it('asks again once the cache entry is older than its TTL', async () => {
    let now = Date.now();
    const verifier = new SupabaseIdentityVerifier({ url: provider.url, anonKey: provider.anonKey, cacheTtlMs: 60_000, now: () => now });
    const token = await signLocalToken(SECRET, 'u1');
    await verifier.verify(token);
    now += 59_000;
    await verifier.verify(token);
    expect(provider.calls).to.equal(1);
    now += 2_000;
    await verifier.verify(token);
    expect(provider.calls).to.equal(2);
  });

  it('never serves a cached answer past the token’s exp', async () => {
    let now = Date.now();
    const verifier = new SupabaseIdentityVerifier({ url: provider.url, anonKey: provider.anonKey, now: () => now });
    const token = await signLocalToken(SECRET, 'u1', { expiresInSeconds: 10 });
    await verifier.verify(token);
    now += 11_000;
    const error = await verifier.verify(token).catch((e) => e);
    expect(error).to.be.instanceOf(UnauthenticatedError);
    expect(provider.calls).to.equal(1);
  });

  it('caches a refusal briefly: one call per bogus token within the window, a new call after it', async () => {
    let now = Date.now();
    const verifier = new SupabaseIdentityVerifier({ url: provider.url, anonKey: provider.anonKey, refusalCacheTtlMs: 10_000, now: () => now });
    const bad = await signLocalToken('another-secret-entirely-0123456789', 'u1');
    const refusals = await Promise.all(Array.from({ length: 5 }, () => verifier.verify(bad).catch((e) => e)));
    for (let i = 0; i < 3; i++) refusals.push(await verifier.verify(bad).catch((e) => e));
    for (const error of refusals) expect(error).to.be.instanceOf(UnauthenticatedError);
    expect(provider.calls).to.equal(1);
    now += 11_000;
    expect(await verifier.verify(bad).catch((e) => e)).to.be.instanceOf(UnauthenticatedError);
    expect(provider.calls).to.equal(2);
  });

  it('keeps refusals apart: a flood of bogus tokens does not push an accepted token out of the cache', async () => {
    const verifier = new SupabaseIdentityVerifier({ url: provider.url, anonKey: provider.anonKey, maxCacheEntries: 3 });
    const good = await signLocalToken(SECRET, 'u1');
    await verifier.verify(good);
    for (let i = 0; i < 5; i++) await verifier.verify(await signLocalToken('another-secret-entirely-0123456789', `bogus-${i}`)).catch(() => {});
    const calls = provider.calls;
    expect(await verifier.verify(good)).to.deep.equal({ userId: 'u1' });
    expect(provider.calls).to.equal(calls);
  });

  it('treats a 429 from the provider as unavailable, and does not remember it as a refusal', async () => {
    const verifier = new SupabaseIdentityVerifier({ url: provider.url, anonKey: provider.anonKey });
    const token = await signLocalToken(SECRET, 'u1');
    provider.forceStatus = 429;
    const error = await verifier.verify(token).catch((e) => e);
    expect(error).to.be.instanceOf(UpstreamUnavailableError);
    expect(error.dependency).to.equal('identity provider');
    provider.forceStatus = null;
    expect(await verifier.verify(token)).to.deep.equal({ userId: 'u1' });
  });

  it('reports a refused anon key as Supabase unavailable (the operator’s fault), not as a bad token', async () => {
    const verifier = new SupabaseIdentityVerifier({ url: provider.url, anonKey: 'not-the-project-anon-key' });
    const error = await verifier.verify(await signLocalToken(SECRET, 'u1')).catch((e) => e);
    expect(error).to.be.instanceOf(UpstreamUnavailableError);
    expect(error.dependency).to.equal('identity provider');
    expect(error.message).to.match(/anon key/i);
    expect(provider.calls).to.equal(1);
    // Readiness reports it too.
    expect(await verifier.check().catch((e) => e)).to.be.instanceOf(UpstreamUnavailableError);
    // With the right key the same token is accepted.
    const good = new SupabaseIdentityVerifier({ url: provider.url, anonKey: provider.anonKey });
    expect(await good.verify(await signLocalToken(SECRET, 'u1'))).to.deep.equal({ userId: 'u1' });
    expect(await good.check()).to.equal(undefined);
  });

  it('reports a provider that is unreachable or errs as unavailable, not as a bad token', async () => {
    const verifier = new SupabaseIdentityVerifier({ url: provider.url, anonKey: provider.anonKey });
    provider.forceStatus = 500;
    expect(await verifier.verify(await signLocalToken(SECRET, 'u1')).catch((e) => e)).to.be.instanceOf(UpstreamUnavailableError);
    await provider.stop();
    expect(await verifier.verify(await signLocalToken(SECRET, 'u2')).catch((e) => e)).to.be.instanceOf(UpstreamUnavailableError);
  });
});
