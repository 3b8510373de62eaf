/**
 * Init payment (POST /api/payments/v1/transactions; docs/payments.md, "Init payment"): the request checked against
 * the terminal's configuration (method, provider, limits, holding), the payer enriched, and the transaction
 * appended with its orderId and its referenceId each claimed once per merchant in the same append (guard streams
 * paymentOrder-<digest> and paymentReference-<digest>; 409 4091).
 */
import {
  effectiveCardType,
  paymentsError,
  providerByCode,
  providerById,
  type OrderInfo,
  type PaymentMerchant,
  type Transaction,
  type TransactionDetails,
  type TransactionPayer,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import { nameBasedUuid } from '../shared/aggregate.js';
import type { EventStore } from '../shared/event-store.js';
import type { UserLookup } from '../shared/user-lookup.js';
import type { PaymentsAggregates } from './aggregates.js';
import { requestedDetails } from './transaction-request.js';
export { orderStream } from './transaction-request.js';
import type { PaymentCaller } from './merchant-directory.js';
import type { PaymentProviderPort, ProviderPayment } from './provider-port.js';
import { savedMethodOnTerminal, type SavedPaymentMethods } from './saved-methods.js';
import type { PaymentSessionService } from './payment-sessions.js';
import { sessionPaymentLink } from './session-payment-link.js';

/** The init body and headers as the interface parsed them (forms checked; amounts already their integer part). */
export interface InitPaymentRequest {
  amount: number;
  currency: string;
  description: string;
  orderId: string;
  referenceId: string;
  paymentMethodCode?: string;
  providerId?: string;
  userPaymentMethodId?: string;
  paymentType?: '2D' | '3D';
  skipHolding?: boolean;
  sellerMerchantId?: string;
  businessUnitId?: string;
  branchId?: string;
  returnUrl?: string;
  providerData?: string;
  orderInfo?: OrderInfo;
  miniAppUserId?: string;
  externalUserId?: string;
  miniAppId?: string;
  authAudience?: string;
  /** The payment session whose PAYMENT line this pays (docs/payments-sessions.md); not signed. */
  paymentSessionId?: string;
}

export interface PaymentInfo {
  requiresRedirect: boolean;
  redirectUrl: string | null;
  providerCode: string;
  providerId: string;
  providerTransaction: string | null;
  amount: number;
}

const invalid = (field: string, message: string) =>
  paymentsError('INVALID_PAYMENT_REQUEST', `${field}: ${message}`, { field });

export interface InitDeps {
  store: EventStore;
  clock: Clock;
  transactions: PaymentsAggregates['transaction'];
  users: () => UserLookup;
  /** The provider port of each provider code. */
  providers: ReadonlyMap<string, PaymentProviderPort>;
  abandonAfterSeconds: number;
  savedMethods: SavedPaymentMethods;
  /** Charges a saved card at its provider and records the result on the transaction (transactions.ts). */
  chargeSavedCard: (t: Transaction, port: PaymentProviderPort, payment: ProviderPayment) => Promise<Transaction>;
  /** The sessions an init may pay (paymentSessionId). */
  sessions: PaymentSessionService;
}

/** The method and provider the request names on the caller's terminal, checked against its configuration. */
function resolveMethod(merchant: PaymentMerchant, caller: PaymentCaller, req: InitPaymentRequest) {
  if (req.paymentMethodCode === undefined) throw invalid('paymentMethodCode', 'is required');
  if (req.providerId === undefined) throw invalid('providerId', 'is required');
  const terminal = merchant.terminals.find((t) => t.terminalId === caller.terminalId)!;
  const method = terminal.methods.find((m) => m.code === req.paymentMethodCode && m.enabled);
  if (!method) throw invalid('paymentMethodCode', `the terminal offers no payment method ${req.paymentMethodCode}`);
  const provider = providerById(req.providerId);
  const contract = provider && method.providers.find((p) => p.providerCode === provider.code);
  if (!provider || !contract)
    throw invalid('providerId', `provider ${req.providerId} does not serve ${method.code} on this terminal`);
  const limit = contract.currencies.find((c) => c.currency === req.currency);
  if (!limit) throw invalid('currency', `${method.code} through ${provider.code} does not take ${req.currency}`);
  if (req.amount < limit.minAmount || req.amount > limit.maxAmount)
    throw invalid('amount', `must be from ${limit.minAmount} to ${limit.maxAmount} ${req.currency}`);
  return { method, provider };
}

/**
 * userPaymentMethodId wins over paymentMethodCode+providerId (the seed): the saved method of the X-MiniApp-User-ID
 * user at this merchant names the method and the provider. Unknown, removed or another user's: 4001 naming it.
 */
async function resolveSavedMethod(
  deps: InitDeps,
  merchant: PaymentMerchant,
  caller: PaymentCaller,
  req: InitPaymentRequest,
  userPaymentMethodId: string,
  payer: TransactionPayer,
) {
  if (payer.kind !== 'MINIAPP_USER')
    throw invalid('X-MiniApp-User-ID', "is required with userPaymentMethodId (a saved method is a host-app user's)");
  const saved = await deps.savedMethods.find(merchant.merchantCode, payer.userId, userPaymentMethodId);
  if (!saved) throw invalid('userPaymentMethodId', `the user has no saved payment method ${userPaymentMethodId} here`);
  const method = savedMethodOnTerminal(merchant, caller, saved, req.amount, req.currency);
  const provider = providerByCode(saved.provider.code)!;
  const providerToken = deps.savedMethods.tokenOf(merchant.merchantCode, payer.userId, saved);
  return { method, provider, saved, providerToken };
}

export async function initiateTransaction(
  deps: InitDeps,
  context: CommandContext,
  caller: PaymentCaller,
  merchant: PaymentMerchant,
  req: InitPaymentRequest,
): Promise<{ transaction: Transaction; paymentInfo: PaymentInfo }> {
  // A saved method needs the payer first (it is the user's); otherwise the method is checked before the user lookup.
  const { userPaymentMethodId } = req;
  const named = userPaymentMethodId === undefined ? resolveMethod(merchant, caller, req) : null;
  const payer = await payerOf(deps, req);
  const { method, provider, saved, providerToken } =
    userPaymentMethodId === undefined
      ? { ...named!, saved: null, providerToken: null }
      : await resolveSavedMethod(deps, merchant, caller, req, userPaymentMethodId, payer);
  // skipHolding: true captures at once, false holds (only where the provider can), absent follows the configuration.
  if (req.skipHolding === false && !provider.supportsHolding)
    throw invalid('skipHolding', `provider ${provider.code} cannot hold: send true or leave it out`);
  const skipHolding = req.skipHolding ?? method.autoCapture ?? true;
  const cardType = effectiveCardType(method, req.paymentType);
  const { paymentSessionId } = req;
  const link =
    paymentSessionId === undefined
      ? null
      : await sessionPaymentLink(
          deps.sessions,
          deps.store,
          context,
          caller,
          paymentSessionId,
          {
            orderId: req.orderId,
            referenceId: req.referenceId,
            amount: req.amount,
            currency: req.currency,
            method: method.code,
            provider: provider.code,
          },
          deps.clock.now().toISOString(),
        );
  // Named by the command (its X-Request-ID, the idempotency key): a resend reaches the same transaction, which answers
  // it from its first time (or refuses another body under the key); the provider is asked to start the same id again.
  const transactionId = nameBasedUuid(`${context.commandId}/transaction`);
  const port = deps.providers.get(provider.code);
  // A provider configured on the terminal but not run by this deployment (the sandbox's, in production).
  if (!port) throw invalid('providerId', `provider ${provider.code} is not available in this deployment`);
  const payment: ProviderPayment = {
    transactionId,
    providerCode: provider.code,
    amount: req.amount,
    currency: req.currency,
    orderId: req.orderId,
    description: req.description,
    cardType,
    ...(saved && providerToken !== null && { savedCard: { providerToken, cardNo: saved.cardNo } }),
  };
  const session = await port.start(payment);

  const { state } = await deps.transactions
    .handle(
      context,
      transactionId,
      (now) => {
        const details: TransactionDetails = {
          ...requestedDetails({ transactionId, merchant, terminalId: caller.terminalId, method, provider, payer, req }),
          cardType,
          skipHolding,
          userPaymentMethodId: saved?.userPaymentMethodId ?? null,
          savedCardNo: saved?.cardNo ?? null,
          tokenizable: !saved && method.type === 'CARD' && method.supportsTokenization && payer.kind === 'MINIAPP_USER',
          expiresAt: new Date(Date.parse(now) + deps.abandonAfterSeconds * 1000).toISOString(),
          createdAt: now,
          ...(paymentSessionId !== undefined && { paymentSessionId }),
        };
        return { type: 'InitiateTransaction' as const, details, provider: session, now };
      },
      {
        // With a session: its PROCESSING in the same append (session-payment-link.ts). The orderId and referenceId
        // claims are the aggregate's (aggregates.ts).
        sideWrites: (events) =>
          events.flatMap((e) =>
            link && e.type === 'TransactionInitiated' ? [link.sideWrite(e.data.transactionId, e.data.createdAt)] : [],
          ),
      },
    )
    .catch(async (error: unknown) => {
      throw link ? await link.refusal(error) : error;
    });
  if (state.status === 'NONE') throw new Error('an init answered without a transaction');
  // A 2D payment with a saved card has no page: the provider charges the token now, once the transaction (and its
  // orderId claim) is recorded, so a refused init never charged anything. A resend finds the charge recorded.
  const final =
    saved && session.redirectUrl === null && state.status === 'PROCESSING'
      ? await deps.chargeSavedCard(state, port, { ...payment, transactionId: state.transactionId })
      : state;
  return {
    transaction: final,
    paymentInfo: {
      requiresRedirect: method.requiresRedirect && final.redirectUrl !== null,
      redirectUrl: final.redirectUrl,
      providerCode: final.provider.code,
      providerId: final.provider.id,
      providerTransaction: final.providerTransactionId,
      amount: final.amount,
    },
  };
}

/** X-MiniApp-User-ID is enriched from the identity directory (unknown: 4302); X-External-User-ID is kept as given. */
async function payerOf(deps: InitDeps, req: InitPaymentRequest): Promise<TransactionPayer> {
  if (req.miniAppUserId !== undefined) {
    const user = await deps.users().find(req.miniAppUserId);
    if (!user) throw paymentsError('USER_NOT_FOUND', `no user ${req.miniAppUserId}`, { field: 'X-MiniApp-User-ID' });
    return { kind: 'MINIAPP_USER', userId: user.userId, name: user.name };
  }
  if (req.externalUserId !== undefined) return { kind: 'EXTERNAL_USER', externalUserId: req.externalUserId };
  return { kind: 'NONE' };
}
