/**
 * A host-app user's saved payment methods at one merchant (stream paymentUserMethods-<digest>; docs/payments.md,
 * "Saved payment methods"): cards the user chose to save while paying on a provider's page, each the provider's token
 * (encrypted by the application) and the card only masked. Saved from an authorized payment, used by init's
 * `userPaymentMethodId`, removed by the merchant's backend for the user. One stream per user and merchant: the user's
 * list is one read, and a method of another user or merchant is simply not in it.
 */
import type { Decider } from '../shared/decider.js';
import { paymentsError } from './errors.js';
import type { UserPaymentMethodSaved, UserPaymentMethodsEvent } from './events.js';

export type SavedPaymentMethod = Omit<UserPaymentMethodSaved['data'], 'merchantCode' | 'userId'> & {
  readonly status: 'ACTIVE' | 'REMOVED';
  readonly removedAt: string | null;
};

export type UserPaymentMethodsState =
  | { readonly status: 'NONE' }
  | {
      readonly status: 'ACTIVE';
      readonly merchantCode: string;
      readonly userId: string;
      readonly methods: readonly SavedPaymentMethod[];
    };

export type UserPaymentMethodsCommand =
  | { type: 'SavePaymentMethod'; method: UserPaymentMethodSaved['data']; now: string }
  | { type: 'RemovePaymentMethod'; userPaymentMethodId: string; removedBy: string; now: string };

/** The user's methods that can be used and listed. */
export const activeSavedMethods = (state: UserPaymentMethodsState): readonly SavedPaymentMethod[] =>
  state.status === 'NONE' ? [] : state.methods.filter((m) => m.status === 'ACTIVE');

function decide(command: UserPaymentMethodsCommand, state: UserPaymentMethodsState): UserPaymentMethodsEvent[] {
  switch (command.type) {
    case 'SavePaymentMethod': {
      const { method } = command;
      if (state.status !== 'NONE' && (state.merchantCode !== method.merchantCode || state.userId !== method.userId))
        throw new Error('a saved method was addressed to another user stream');
      // The same card (the provider's fingerprint) saved again stays one method: the first token keeps serving.
      const same = activeSavedMethods(state).some(
        (m) =>
          m.userPaymentMethodId === method.userPaymentMethodId ||
          (m.provider.code === method.provider.code && m.fingerprint === method.fingerprint),
      );
      if (same) return [];
      return [{ type: 'UserPaymentMethodSaved', data: method }];
    }
    case 'RemovePaymentMethod': {
      const found = activeSavedMethods(state).find((m) => m.userPaymentMethodId === command.userPaymentMethodId);
      if (state.status === 'NONE' || !found)
        throw paymentsError('SAVED_METHOD_NOT_FOUND', `no saved payment method ${command.userPaymentMethodId}`, {
          field: 'userPaymentMethodId',
        });
      return [
        {
          type: 'UserPaymentMethodRemoved',
          data: {
            merchantCode: state.merchantCode,
            userId: state.userId,
            userPaymentMethodId: found.userPaymentMethodId,
            removedBy: command.removedBy,
            removedAt: command.now,
          },
        },
      ];
    }
  }
}

function evolve(state: UserPaymentMethodsState, event: UserPaymentMethodsEvent): UserPaymentMethodsState {
  switch (event.type) {
    case 'UserPaymentMethodSaved': {
      const { merchantCode, userId, ...method } = event.data;
      const methods = state.status === 'NONE' ? [] : state.methods;
      return {
        status: 'ACTIVE',
        merchantCode,
        userId,
        methods: [...methods, { ...method, status: 'ACTIVE', removedAt: null }],
      };
    }
    case 'UserPaymentMethodRemoved':
      if (state.status === 'NONE') return state;
      return {
        ...state,
        methods: state.methods.map((m) =>
          m.userPaymentMethodId === event.data.userPaymentMethodId
            ? { ...m, status: 'REMOVED', removedAt: event.data.removedAt }
            : m,
        ),
      };
  }
}

export const userPaymentMethodsDecider: Decider<
  UserPaymentMethodsCommand,
  UserPaymentMethodsState,
  UserPaymentMethodsEvent
> = {
  initialState: { status: 'NONE' },
  decide,
  evolve,
};
