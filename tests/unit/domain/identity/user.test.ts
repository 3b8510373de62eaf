import { userDecider, type UserEvent, type UserProfile } from '../../../../domain/identity/index.js';
import { scenario } from '../../../support/decider-spec.js';

const given = scenario(userDecider);
const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-02T10:00:00.000Z';
const profile: UserProfile = {
  name: 'Nguyễn Văn An',
  dateOfBirth: '1990-04-12',
  gender: 'MALE',
  phoneNumber: '0901234567',
  email: 'an@example.vn',
  avatarUrl: null,
};
const registered: UserEvent = { type: 'UserRegistered', data: { userId: 'u1', ...profile, registeredAt: now } };
const consented: UserEvent = {
  type: 'ConsentGranted',
  data: { userId: 'u1', miniAppId: 'app', scopes: ['profile', 'phone'], grantedAt: now },
};

describe('identity user decider', () => {
  it('given nothing, when registered, then UserRegistered', () =>
    given([]).when({ type: 'RegisterUser', userId: 'u1', profile, now }).then([registered]));

  it('given a user, when registered again, then USER_EXISTS', () => {
    given([registered]).when({ type: 'RegisterUser', userId: 'u1', profile, now }).thenRejects('USER_EXISTS');
  });

  it('given nothing, when a date of birth after today is given, then INVALID_USER naming it', () => {
    given([])
      .when({ type: 'RegisterUser', userId: 'u1', profile: { ...profile, dateOfBirth: '2026-03-02' }, now })
      .thenRejects('INVALID_USER', { field: 'date_of_birth' });
  });

  it('given a user, when the profile changes, then only the changed fields are recorded', () =>
    given([registered])
      .when({ type: 'ChangeUserProfile', userId: 'u1', changes: { name: profile.name, email: null }, now: later })
      .then([{ type: 'UserProfileChanged', data: { userId: 'u1', changes: { email: null }, changedAt: later } }]));

  it('given a user, when nothing changes, then no event', () =>
    given([registered])
      .when({ type: 'ChangeUserProfile', userId: 'u1', changes: { gender: 'MALE' }, now })
      .then([]));

  it('given nothing, when a profile changes or consent is recorded, then USER_NOT_FOUND', () => {
    given([]).when({ type: 'ChangeUserProfile', userId: 'u1', changes: {}, now }).thenRejects('USER_NOT_FOUND');
    given([])
      .when({ type: 'RecordConsent', userId: 'u1', miniAppId: 'app', granted: ['profile'], withdrawn: [], now })
      .thenRejects('USER_NOT_FOUND');
  });

  it('given profile and phone consented, when email is granted and phone withdrawn, then only those changes', () =>
    given([registered, consented])
      .when({
        type: 'RecordConsent',
        userId: 'u1',
        miniAppId: 'app',
        granted: ['email', 'profile'],
        withdrawn: ['phone'],
        now: later,
      })
      .then([
        { type: 'ConsentGranted', data: { userId: 'u1', miniAppId: 'app', scopes: ['email'], grantedAt: later } },
        { type: 'ConsentWithdrawn', data: { userId: 'u1', miniAppId: 'app', scopes: ['phone'], withdrawnAt: later } },
      ]));

  it('given consent for one mini-app, when another is granted the same, then it is granted there too', () =>
    given([registered, consented])
      .when({ type: 'RecordConsent', userId: 'u1', miniAppId: 'constructor', granted: ['phone'], withdrawn: [], now })
      .then([
        { type: 'ConsentGranted', data: { userId: 'u1', miniAppId: 'constructor', scopes: ['phone'], grantedAt: now } },
      ]));

  it('given consent, when what stands is recorded again, then no event', () =>
    given([registered, consented])
      .when({ type: 'RecordConsent', userId: 'u1', miniAppId: 'app', granted: ['phone'], withdrawn: ['email'], now })
      .then([]));

  it('when a scope is granted and withdrawn at once, then INVALID_USER', () => {
    given([registered])
      .when({ type: 'RecordConsent', userId: 'u1', miniAppId: 'app', granted: ['phone'], withdrawn: ['phone'], now })
      .thenRejects('INVALID_USER', { field: 'scopes' });
  });
});
