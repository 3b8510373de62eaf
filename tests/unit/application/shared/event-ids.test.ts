import { expect } from 'chai';
import { nameBasedUuid } from '../../../../application/shared/event-ids.js';

// Expected values from Python's uuid.uuid5 (RFC 9562) with the service's namespace 6f1c2f0e-8a4b-4d1c-9e2a-7b3c5d6e7f80.
describe('nameBasedUuid', () => {
  it('given a name, then it is the RFC 9562 version 5 UUID of that name in the service namespace', () => {
    expect(nameBasedUuid('request/abc')).to.equal('c6a8a2f6-4cca-50fd-9735-88a6a7b71cab');
    expect(nameBasedUuid('')).to.equal('683ab001-21cf-59ed-95c4-b8cea90d17fd');
  });

  it('given a name outside ASCII, then its UTF-8 bytes are hashed', () => {
    expect(nameBasedUuid('Việt Nam/ổ')).to.equal('fb368cb0-0805-5583-bcad-0b27178a40ca');
  });

  it('given names longer than the buffer it reuses, then they are hashed whole', () => {
    expect(nameBasedUuid('x'.repeat(5000))).to.equal('a99d9e7d-38eb-5a6a-9da4-4ef2570271ad');
    expect(nameBasedUuid(`${'x'.repeat(4079)}ổ`)).to.equal('6d0ec70f-898c-5d9f-b59f-d9b1d0ae4a5a');
  });

  it('given a long name and then a short one, then the short one is not mixed with what the long one left', () => {
    nameBasedUuid('y'.repeat(1000));
    expect(nameBasedUuid('request/abc')).to.equal('c6a8a2f6-4cca-50fd-9735-88a6a7b71cab');
  });
});
