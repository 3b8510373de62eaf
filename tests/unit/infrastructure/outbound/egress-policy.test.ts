import { expect } from 'chai';
import {
  addressRefusal,
  egressPolicyOf,
  hostNameRefusal,
  urlRefusal,
  type EgressPolicy,
} from '../../../../infrastructure/shared/outbound/egress-policy.js';

/** The egress policy (docs/outbound.md): every refused range, its IPv6 and mapped forms, names and URLs. */
describe('egress policy', () => {
  const strict: EgressPolicy = { allowLoopback: false, httpsOnly: false };
  const development: EgressPolicy = { allowLoopback: true, httpsOnly: false };
  const production: EgressPolicy = { allowLoopback: false, httpsOnly: true };

  const refusedAddresses: [string, string][] = [
    // IPv4, one address at each edge of every range.
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    // IPv6.
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['100::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    // IPv6 forms reaching a refused IPv4 address: mapped (dotted and hex), NAT64, 6to4.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['::ffff:100.64.0.1', 'CGNAT'],
    ['::ffff:224.0.0.1', 'multicast'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a9fe:a9fe::', 'link-local'],
    ['[::1]', 'loopback'],
  ];
  for (const [address, kind] of refusedAddresses)
    it(`refuses ${address} (${kind})`, () => {
      const refused = addressRefusal(address, strict);
      expect(refused).to.be.a('string').and.include(kind);
      expect(
        urlRefusal(`https://${address.includes(':') && !address.startsWith('[') ? `[${address}]` : address}/x`, strict),
      ).to.be.a('string');
    });

  const allowedAddresses = [
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '169.253.255.255',
    '192.167.255.255',
    '223.255.255.254',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81c::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];
  for (const address of allowedAddresses)
    it(`allows ${address}`, () => expect(addressRefusal(address, strict)).to.equal(null));

  it('allows loopback, and only loopback, under the development setting', () => {
    for (const address of ['127.0.0.1', '127.3.4.5', '::1', '::ffff:127.0.0.1', '[::1]'])
      expect(addressRefusal(address, development), address).to.equal(null);
    for (const address of ['10.0.0.1', '169.254.169.254', '192.168.1.1', 'fe80::1', 'fd00::1', '0.0.0.0', '::'])
      expect(addressRefusal(address, development), address).to.be.a('string');
  });

  it('refuses names of the machine and of the local network, and names without a domain', () => {
    for (const name of [
      'localhost',
      'LOCALHOST',
      'localhost.',
      'api.localhost',
      'localhost.localdomain',
      'ip6-localhost',
    ])
      expect(hostNameRefusal(name, strict), name).to.include('local machine');
    for (const name of [
      'printer.local',
      'metadata.google.internal',
      'nas.lan',
      'router.home.arpa',
      '1.0.0.127.in-addr.arpa',
    ])
      expect(hostNameRefusal(name, strict), name).to.include('local-network');
    for (const name of ['metadata', 'kubernetes', 'db'])
      expect(hostNameRefusal(name, strict), name).to.include('without a domain');
    for (const name of ['partner.example', 'ipn.shop.vn', 'localhost.partner.example'])
      expect(hostNameRefusal(name, strict), name).to.equal(null);
    expect(hostNameRefusal('localhost', development)).to.equal(null);
    expect(hostNameRefusal('metadata.google.internal', development)).to.be.a('string');
  });

  it('judges URLs by scheme, credentials and host, whatever form the address is written in', () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/ipn',
      'http://[::1]:8080/ipn',
      'http://localhost:4000/ipn',
      'http://2130706433/', // 127.0.0.1 as one number
      'http://0x7f.1/', // 127.0.0.1 in hex, shortened
      'http://017700000001/', // 127.0.0.1 in octal
      'http://0251.0376.0251.0376/', // 169.254.169.254 in octal
      'http://[::ffff:169.254.169.254]/',
      'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'https://user:pass@partner.example/ipn',
      'ftp://partner.example/ipn',
      'file:///etc/passwd',
      'not a url',
    ])
      expect(urlRefusal(url, strict), url).to.be.a('string');
    expect(urlRefusal('https://partner.example/ipn', strict)).to.equal(null);
    expect(urlRefusal('http://partner.example/ipn', strict)).to.equal(null);
    expect(urlRefusal('http://127.0.0.1:4000/api/v1/payment-webhook', development)).to.equal(null);
    expect(urlRefusal('http://localhost:4000/ipn', development)).to.equal(null);
  });

  it('refuses plain http in production, and loopback there whatever the setting says', () => {
    expect(urlRefusal('http://partner.example/ipn', production)).to.include('https');
    expect(urlRefusal('https://partner.example/ipn', production)).to.equal(null);
    expect(egressPolicyOf({ NODE_ENV: 'production', EGRESS_ALLOW_LOOPBACK: true })).to.deep.equal(production);
    expect(egressPolicyOf({ NODE_ENV: 'production' })).to.deep.equal(production);
    expect(egressPolicyOf({ NODE_ENV: 'development' })).to.deep.equal(development);
    expect(egressPolicyOf({ NODE_ENV: 'test', EGRESS_ALLOW_LOOPBACK: false })).to.deep.equal(strict);
  });
});
