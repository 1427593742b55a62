import { expect } from 'chai';
import { AuthFailureLimit } from '../../../server/http/auth-failure-limit.js';
import type { IncomingMessage } from 'node:http';
import { clientKey, requestClientAddress } from '../../../server/http/client-address.js';
import { CountPerKey } from '../../../server/http/connection-cap.js';

/** Just what requestClientAddress reads of a request: its headers and its socket's peer. */
const request = (headers: Record<string, string | string[]>, remoteAddress = '10.0.0.1') =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe('per-client limits', () => {
  describe('clientKey', () => {
    it('keeps IPv4 addresses, also IPv4-mapped ones', () => {
      expect(clientKey('203.0.113.7')).to.equal('203.0.113.7');
      expect(clientKey('::ffff:203.0.113.7')).to.equal('203.0.113.7');
      expect(clientKey('::FFFF:127.0.0.1')).to.equal('127.0.0.1');
    });

    it('groups IPv6 addresses by their /56, however they are written', () => {
      const key = clientKey('2001:db8:abcd:1200::1');
      expect(key).to.equal('2001:db8:abcd:1200::/56');
      for (const same of ['2001:0db8:abcd:12ff:ffff:ffff:ffff:ffff', '2001:db8:abcd:1234:5::9', '2001:DB8:ABCD:1201::']) {
        expect(clientKey(same), same).to.equal(key);
      }
      for (const other of ['2001:db8:abcd:1300::1', '2001:db8:abce:1200::1', '2001:db9:abcd:1200::1']) {
        expect(clientKey(other), other).to.not.equal(key);
      }
      expect(clientKey('::1')).to.equal('0:0:0:0::/56');
      expect(clientKey('fe80::1%eth0')).to.equal('fe80:0:0:0::/56');
    });

    it('leaves anything else as it is', () => {
      expect(clientKey('not an address')).to.equal('not an address');
    });
  });

  describe('requestClientAddress', () => {
    it('behind a trusted proxy, takes the last X-Forwarded-For entry (the one the proxy appended), as Koa’s ctx.ip does', () => {
      expect(requestClientAddress(request({ 'x-forwarded-for': '203.0.113.9, 198.51.100.1' }), true)).to.equal('198.51.100.1');
      expect(requestClientAddress(request({ 'x-forwarded-for': ['203.0.113.9', ' 198.51.100.2 '] }), true)).to.equal('198.51.100.2');
    });

    it('takes the socket’s peer without a trusted proxy, or when the header is missing or ends empty', () => {
      expect(requestClientAddress(request({ 'x-forwarded-for': '198.51.100.1' }), false)).to.equal('10.0.0.1');
      expect(requestClientAddress(request({}), true)).to.equal('10.0.0.1');
      expect(requestClientAddress(request({ 'x-forwarded-for': '198.51.100.1, ' }), true)).to.equal('10.0.0.1');
    });
  });

  describe('CountPerKey', () => {
    it('counts per key and forgets a key back at zero', () => {
      const counts = new CountPerKey();
      counts.add('a');
      counts.add('a');
      counts.add('b');
      counts.remove('a');
      expect([counts.get('a'), counts.get('b')]).to.deep.equal([1, 1]);
      counts.remove('a');
      counts.remove('b');
      expect((counts as unknown as { counts: Map<string, number> }).counts.size).to.equal(0);
    });
  });

  describe('AuthFailureLimit', () => {
    it('refuses an address once it reached the limit, others not, and tells how long to wait', () => {
      const limit = new AuthFailureLimit(3);
      for (let i = 0; i < 3; i++) {
        expect(limit.retryAfterSeconds('a')).to.equal(0);
        limit.recordFailure('a');
      }
      expect(limit.retryAfterSeconds('a')).to.be.within(1, 60);
      expect(limit.retryAfterSeconds('b')).to.equal(0);
    });

    it('forgets the oldest addresses first when it holds as many as allowed', () => {
      const limit = new AuthFailureLimit(1, { maxAddresses: 2 });
      for (const address of ['a', 'b', 'c']) limit.recordFailure(address);
      expect(['a', 'b', 'c'].map((address) => limit.retryAfterSeconds(address) > 0)).to.deep.equal([false, true, true]);
    });
  });
});
