import { expect } from 'chai';
import { isCredentialName, loggedUrl } from '../../../api/shared/logged-url.js';

describe('loggedUrl: credentials redacted from logged URLs (docs/operations.md, "Logs")', () => {
  it('redacts every query parameter named for a credential, in any case or spelling, and keeps the rest', () => {
    expect(loggedUrl('/sandbox/payments/0b1c?token=abcdef0123456789')).to.equal(
      '/sandbox/payments/0b1c?token=[redacted]',
    );
    expect(
      loggedUrl('/x?page=2&access_token=a&clientSecret=b&X-Api-Key=c&secureHash=d&pin_code=e&code=f&q=token&keyword=k'),
    ).to.equal(
      '/x?page=2&access_token=[redacted]&clientSecret=[redacted]&X-Api-Key=[redacted]&secureHash=[redacted]&pin_code=[redacted]&code=[redacted]&q=token&keyword=k',
    );
    expect(loggedUrl('/x?%74oken=a&TOKEN=b&token')).to.equal('/x?%74oken=[redacted]&TOKEN=[redacted]&token=[redacted]');
    expect(loggedUrl('/x?%zz=1')).to.equal('/x?%zz=1');
    expect(loggedUrl('/health')).to.equal('/health');
  });

  it('takes ids that only end in a code or a key as no credential', () => {
    for (const name of ['merchantCode', 'status_code', 'providerCode', 'sortKey', 'keyword', 'user_id', 'miniapp_id'])
      expect(isCredentialName(name), name).to.equal(false);
    for (const name of ['token', 'refreshToken', 'api_key', 'secret', 'signature', 'otp', 'state', 'Authorization'])
      expect(isCredentialName(name), name).to.equal(true);
  });
});
