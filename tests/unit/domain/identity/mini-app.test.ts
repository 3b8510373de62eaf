import { miniAppDecider, type MiniAppEvent } from '../../../../domain/identity/index.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(miniAppDecider);
const now = '2026-03-01T10:00:00.000Z';
const registered: MiniAppEvent = {
  type: 'MiniAppRegistered',
  data: { miniAppId: 'app', name: 'App', redirectUris: ['https://a.vn/cb'], secretHash: 'h1', registeredAt: now },
};

describe('identity mini-app decider', () => {
  it('given nothing, when registered, then MiniAppRegistered with the secret hash', () =>
    given([])
      .when({
        type: 'RegisterMiniApp',
        miniAppId: 'app',
        name: 'App',
        redirectUris: ['https://a.vn/cb'],
        secretHash: 'h1',
        now,
      })
      .then([registered]));

  it('given a mini-app, when registered again, then MINI_APP_EXISTS', () => {
    given([registered])
      .when({ type: 'RegisterMiniApp', miniAppId: 'app', name: 'App', redirectUris: [], secretHash: 'h2', now })
      .thenRejects('MINI_APP_EXISTS');
  });

  it('when a redirect URI repeats, then INVALID_MINI_APP naming redirect_uris', () => {
    given([])
      .when({
        type: 'RegisterMiniApp',
        miniAppId: 'app',
        name: 'A',
        redirectUris: ['https://x', 'https://x'],
        secretHash: 'h',
        now,
      })
      .thenRejects('INVALID_MINI_APP', { field: 'redirect_uris' });
  });

  it('given a mini-app, when its secret rotates, then MiniAppSecretRotated; given none, MINI_APP_NOT_FOUND', () => {
    given([registered])
      .when({ type: 'RotateMiniAppSecret', miniAppId: 'app', secretHash: 'h2', now })
      .then([{ type: 'MiniAppSecretRotated', data: { miniAppId: 'app', secretHash: 'h2', rotatedAt: now } }]);
    given([])
      .when({ type: 'RotateMiniAppSecret', miniAppId: 'app', secretHash: 'h2', now })
      .thenRejects('MINI_APP_NOT_FOUND');
  });
});
