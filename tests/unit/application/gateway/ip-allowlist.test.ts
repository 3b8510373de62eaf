import { expect } from 'chai';
import { IpAllowlist, parseAllowlistEntry } from '../../../../application/gateway/ip-allowlist.js';

describe('a gateway party’s IP allowlist', () => {
  it('reads addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else', () => {
    for (const ok of ['203.0.113.7', '198.51.100.0/24', '0.0.0.0/0', '2001:db8::/32', '::1', '10.0.0.0/8'])
      expect(parseAllowlistEntry(ok), ok).not.to.equal(undefined);
    for (const bad of [
      '',
      'localhost',
      '10.0.0.0/33',
      '2001:db8::/129',
      '10.0.0.1/8/8',
      '10.0.0.0/',
      '10.0.0.0/x',
      '256.0.0.1',
    ])
      expect(parseAllowlistEntry(bad), bad).to.equal(undefined);
  });

  it('allows addresses in its entries only, an IPv4-mapped IPv6 address as its IPv4 address', () => {
    const list = new IpAllowlist(['203.0.113.0/24', '198.51.100.7', '2001:db8::/32']);
    for (const inside of ['203.0.113.1', '203.0.113.255', '198.51.100.7', '::ffff:203.0.113.9', '2001:db8::1'])
      expect(list.allows(inside), inside).to.equal(true);
    for (const outside of ['203.0.114.1', '198.51.100.8', '2001:db9::1', '::1', 'garbage', undefined])
      expect(list.allows(outside), String(outside)).to.equal(false);
  });
});
