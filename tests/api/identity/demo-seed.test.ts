import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { seedIdentityDemo } from '../../../infrastructure/identity/index.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { IdentityApi, expectInfoCode } from './support.js';

describe('identity: the demo seed', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ background: false });
  });
  after(() => app?.stop());

  it('seeds a mini-app and users with consent once, keeps the secret across starts, and leaves other keys alone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'identity-demo-'));
    const file = path.join(dir, 'demo-credentials.json');
    fs.writeFileSync(file, JSON.stringify({ merchantId: 'DEMO', apiKey: 'kept' }));
    const services = app.container.services.identity;
    const first = await seedIdentityDemo(services, dir);
    const second = await seedIdentityDemo(services, dir);
    expect(second).to.deep.equal(first);
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(kept).to.deep.include({ merchantId: 'DEMO', apiKey: 'kept', identity: first });

    // The secret file lost: the secret is rotated, and the new one works.
    fs.rmSync(file);
    const third = await seedIdentityDemo(services, dir);
    expect(third.clientSecret).not.to.equal(first.clientSecret);

    const api = new IdentityApi(app.baseUrl);
    const miniApp = { miniAppId: third.miniAppId, secret: third.clientSecret };
    const tokens = await api.exchange(
      miniApp,
      await api.issueCode('demo-user-1', miniApp.miniAppId, ['profile', 'phone', 'email']),
    );
    const info = expectInfoCode(await api.userInfo(tokens.access_token), 200, 0);
    expect(info.data).to.include({ user_id: 'demo-user-1', name: 'Nguyễn Văn An', phone_number: '0901234567' });
    expect((await api.issueCodeRaw('demo-user-3', miniApp.miniAppId, ['profile'])).status).to.equal(409);
  });
});
