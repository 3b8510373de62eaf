import {
  apiSpecification,
  expectAppended,
  expectNoNewEvents,
  expectResponse,
  existingStream,
  matching,
  type ApiRequest,
} from '../../support/api-spec.js';
import { buildFastApp } from '../../support/fast-app.js';
import { operatorHeaders } from '../support.js';

const now = '2026-03-01T10:00:00.000Z';
const given = apiSpecification({ app: buildFastApp, now });
const request = (method: string, path: string, json?: unknown): ApiRequest => ({
  method,
  path: `/operator/v1/identity${path}`,
  headers: operatorHeaders(),
  json,
});

const registered = {
  type: 'UserRegistered',
  data: {
    userId: 'u-1',
    name: 'Nguyễn Văn An',
    dateOfBirth: null,
    gender: null,
    phoneNumber: '0901234567',
    email: null,
    avatarUrl: null,
    registeredAt: now,
  },
};

describe('identity operator endpoints (fast)', () => {
  it('registers a user: 201 with the user, UserRegistered by the operator', () =>
    given()
      .when(request('POST', '/users', { user_id: 'u-1', name: ' Nguyễn Văn An ', phone_number: '0901234567' }))
      .then(
        expectResponse(201, {
          body: matching({ code: 'SUCCESS', data: matching({ user_id: 'u-1', name: 'Nguyễn Văn An', consents: [] }) }),
        }),
        expectAppended({ 'identityUser-u-1': [{ ...registered, metadata: { actor: { operator: 'alice' } } }] }),
      ));

  it('records consent: the granted and withdrawn scopes as events', () =>
    given(
      existingStream('identityUser-u-1', [registered]),
      existingStream('miniApp-app-1', [
        {
          type: 'MiniAppRegistered',
          data: { miniAppId: 'app-1', name: 'A', redirectUris: [], secretHash: 'ab'.repeat(32), registeredAt: now },
        },
      ]),
    )
      .when(request('PUT', '/users/u-1/consents/app-1', { scopes: ['phone', 'profile'] }))
      .then(
        expectResponse(200, {
          body: matching({ data: matching({ consents: [{ miniapp_id: 'app-1', scopes: ['profile', 'phone'] }] }) }),
        }),
        expectAppended({
          'identityUser-u-1': [
            {
              type: 'ConsentGranted',
              data: { userId: 'u-1', miniAppId: 'app-1', scopes: ['profile', 'phone'], grantedAt: now },
            },
          ],
        }),
      ));

  it('refuses a bad field naming it, appending nothing', () =>
    given()
      .when(request('POST', '/users', { user_id: 'u-1', name: 'A', email: 'nope' }))
      .then(
        expectResponse(400, {
          body: { code: 'OPS-REQ-001', message: 'email: must be an e-mail address', data: { field: 'email' } },
        }),
        expectNoNewEvents(),
      ));
});
