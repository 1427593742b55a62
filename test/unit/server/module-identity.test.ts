import { expect } from 'chai';
import { DomainError } from '../../../core/domain/errors.js';

/**
 * server/container.ts imports the SDK-backed adapters with import() (only when configured). Were the test files loaded
 * through require() (mocha does so when Node can require ES modules, and tsx then compiles them to CommonJS), such an
 * import() would load a second copy of core/: its errors would fail `instanceof DomainError` and turn 401/503 into
 * 500. .mocharc.json therefore turns require(esm) off, so tests load the sources as ES modules, as production does.
 */
describe('module identity under the test runner', () => {
  it('a module imported dynamically shares the classes of the statically imported ones', async () => {
    const dynamic = await import('../../../core/domain/errors.js');
    expect(dynamic.DomainError).to.equal(DomainError);
    const { SupabaseIdentityVerifier } = await import('../../../adapters/supabase/supabase-identity-verifier.js');
    const refusal = await new SupabaseIdentityVerifier({ url: 'http://127.0.0.1:9', anonKey: 'anon' }).verify('').catch((e: unknown) => e);
    expect(refusal).to.be.instanceOf(DomainError);
  });
});
