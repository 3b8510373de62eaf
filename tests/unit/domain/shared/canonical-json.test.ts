import { expect } from 'chai';
import { canonicalJson } from '../../../../domain/shared/canonical-json.js';

describe('canonicalJson', () => {
  it('given parsed JSON with keys in any order, when written, then the same text, index keys first', () => {
    const a = JSON.parse('{"b":1,"a":{"y":[1,{"d":2,"c":3}],"x":null},"10":true,"9":false}') as unknown;
    const b = JSON.parse('{"9":false,"a":{"x":null,"y":[1,{"c":3,"d":2}]},"10":true,"b":1}') as unknown;
    expect(canonicalJson(a)).to.equal('{"9":false,"10":true,"a":{"x":null,"y":[1,{"c":3,"d":2}]},"b":1}');
    expect(canonicalJson(b)).to.equal(canonicalJson(a));
  });

  it('given dates, undefined and functions, when written, then as JSON.stringify writes them', () => {
    const v = { when: new Date(0), gone: undefined, f: () => 1, list: [undefined, () => 1, NaN] };
    expect(canonicalJson(v)).to.equal('{"list":[null,null,null],"when":"1970-01-01T00:00:00.000Z"}');
  });
});
