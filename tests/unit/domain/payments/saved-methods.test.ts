import type { UserPaymentMethodSaved, UserPaymentMethodsEvent } from '../../../../domain/payments/events.js';
import { userPaymentMethodsDecider } from '../../../../domain/payments/saved-methods.js';
import { scenario } from '../../../support/decider-spec.js';

/** A user's saved payment methods at a merchant (docs/payments.md, "Saved payment methods"), given/when/then. */
const given = scenario(userPaymentMethodsDecider);
const t0 = '2026-03-01T10:00:00.000Z';
const t1 = '2026-03-02T10:00:00.000Z';
const idA = '0b7e4c1e-3a52-5c1d-9f0e-6a1b2c3d4e01';
const idB = '0b7e4c1e-3a52-5c1d-9f0e-6a1b2c3d4e02';

const card = (userPaymentMethodId: string, fingerprint = 'fp-a', providerCode = 'SANDBOX_CARD') =>
  ({
    merchantCode: 'm1',
    userId: 'u-1',
    userPaymentMethodId,
    paymentMethodCode: 'CREDIT_CARD',
    methodType: 'CARD',
    provider: { id: 'pv', code: providerCode, name: providerCode },
    cardNo: '411111******1111',
    cardBrand: 'VISA',
    expiry: '12/30',
    fingerprint,
    encryptedToken: 'k1.key.sealed',
    sourceTransactionId: 'tx-1',
    savedAt: t0,
  }) satisfies UserPaymentMethodSaved['data'];

const saved = (data: UserPaymentMethodSaved['data']): UserPaymentMethodsEvent => ({
  type: 'UserPaymentMethodSaved',
  data,
});
const removed = (userPaymentMethodId: string): UserPaymentMethodsEvent => ({
  type: 'UserPaymentMethodRemoved',
  data: { merchantCode: 'm1', userId: 'u-1', userPaymentMethodId, removedBy: 'm1/T1', removedAt: t1 },
});
const save = (data: UserPaymentMethodSaved['data']) => ({ type: 'SavePaymentMethod' as const, method: data, now: t0 });
const remove = (userPaymentMethodId: string) => ({
  type: 'RemovePaymentMethod' as const,
  userPaymentMethodId,
  removedBy: 'm1/T1',
  now: t1,
});

describe('saved payment methods decider', () => {
  it('saves a first card for the user', () =>
    given([])
      .when(save(card(idA)))
      .then([saved(card(idA))]));
  it('saves a second, different card beside it', () =>
    given([saved(card(idA))])
      .when(save(card(idB, 'fp-b')))
      .then([saved(card(idB, 'fp-b'))]));
  it('the same card (the provider fingerprint) saved again stays one method', () =>
    given([saved(card(idA))])
      .when(save(card(idB)))
      .then([]));
  it('a repeated save of one method records nothing', () =>
    given([saved(card(idA))])
      .when(save(card(idA)))
      .then([]));
  it("the same fingerprint at another provider is another provider's token: saved", () =>
    given([saved(card(idA))])
      .when(save(card(idB, 'fp-a', 'SANDBOX_CARD_BACKUP')))
      .then([saved(card(idB, 'fp-a', 'SANDBOX_CARD_BACKUP'))]));
  it('a card removed, then saved again, is saved anew', () =>
    given([saved(card(idA)), removed(idA)])
      .when(save(card(idB)))
      .then([saved(card(idB))]));

  it('removes an active method', () =>
    given([saved(card(idA))])
      .when(remove(idA))
      .then([removed(idA)]));
  it('refuses to remove an unknown or already removed method (SAVED_METHOD_NOT_FOUND)', () => {
    given([]).when(remove(idA)).thenRejects('SAVED_METHOD_NOT_FOUND', { field: 'userPaymentMethodId' });
    given([saved(card(idA))])
      .when(remove(idB))
      .thenRejects('SAVED_METHOD_NOT_FOUND');
    given([saved(card(idA)), removed(idA)])
      .when(remove(idA))
      .thenRejects('SAVED_METHOD_NOT_FOUND');
  });
});
