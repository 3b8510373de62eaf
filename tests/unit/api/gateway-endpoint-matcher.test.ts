import { expect } from 'chai';
import { endpointMatcher } from '../../../api/gateway/endpoint-matcher.js';

describe('the gateway’s endpoint of a request (rate-limit keys)', () => {
  const endpointOf = endpointMatcher([
    { method: 'get', path: '/vouchers/search' },
    { method: 'get', path: '/vouchers/{id}', pathPatterns: { id: '\\d+' } },
    { method: 'get', path: '/vouchers/reservation/{key}' },
    { method: 'post', path: '/vouchers/reserve' },
  ]);

  it('names the route a request takes as METHOD and the spec’s path', () => {
    expect(endpointOf('GET', '/vouchers/search')).to.equal('GET /vouchers/search');
    expect(endpointOf('GET', '/vouchers/42')).to.equal('GET /vouchers/{id}');
    expect(endpointOf('GET', '/vouchers/reservation/abc-def')).to.equal('GET /vouchers/reservation/{key}');
    expect(endpointOf('POST', '/vouchers/reserve')).to.equal('POST /vouchers/reserve');
  });

  it('matches as express does: a trailing slash, any case, HEAD as GET', () => {
    expect(endpointOf('POST', '/vouchers/reserve/')).to.equal('POST /vouchers/reserve');
    expect(endpointOf('POST', '/Vouchers/Reserve')).to.equal('POST /vouchers/reserve');
    expect(endpointOf('HEAD', '/vouchers/7')).to.equal('GET /vouchers/{id}');
  });

  it('counts everything else under *: another method, a parameter off its pattern, a longer path', () => {
    expect(endpointOf('GET', '/vouchers/reserve')).to.equal('*');
    expect(endpointOf('GET', '/vouchers/abc')).to.equal('*');
    expect(endpointOf('GET', '/vouchers/reservation/a/b')).to.equal('*');
    expect(endpointOf('DELETE', '/vouchers/reserve')).to.equal('*');
    expect(endpointOf('GET', '/')).to.equal('*');
  });
});
