/**
 * The sandbox payment providers (docs/payments-sandbox.md): the provider side of a payment, served by this service so
 * that every flow runs for real over HTTP. `start` answers a hosted page's address, signed so that only the payer it
 * was given to can open it; the page's actions decide an outcome (sandbox-outcomes.ts) and the provider reports it to
 * the hub as a real one would: a callback signed with its own key, which the hub verifies (provider-callbacks.ts),
 * sent where configuration says (provider-port.ts, CallbackSender), never where a request says. The sandbox reads the payment from the hub's transaction; a real provider keeps its own.
 */
import { randomUUID } from 'node:crypto';
import {
  paymentsError,
  providerCatalogue,
  type ProviderSession,
  type Transaction,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import { hmacSha256Hex, signatureMatches } from '../shared/signatures.js';
import type {
  CallbackSender,
  CardTokenization,
  PaymentProviderPort,
  ProviderPayment,
  ProviderSettlement,
  SavedCardCharge,
} from './provider-port.js';
import { cardBrandOf, maskCard, type SandboxOutcome } from './sandbox-outcomes.js';
import { SandboxRefunds } from './sandbox-refunds.js';
import type { TransactionService } from './transactions.js';

/** The callback a provider posts to /payment-providers/v1/{providerCode}/callbacks, signed over its raw bytes. */
export interface ProviderCallback {
  callbackId: string;
  transactionId: string;
  providerTransactionId: string;
  result: 'AUTHORIZED' | 'DECLINED' | 'CANCELLED';
  errorCode: string | null;
  errorMessage: string | null;
  payment: { bankName: string | null; accountHolderName: string | null; cardNo: string | null } | null;
  /** AUTHORIZED only, when the payer chose to save the card: the provider's token of it. */
  tokenization?: CardTokenization | null;
  sentAt: string;
}

export const providerSignatureHeader = 'X-Provider-Signature';
export const callbackPath = (providerCode: string) => `/payment-providers/v1/${providerCode}/callbacks`;
export const sandboxPagePath = (transactionId: string) => `/sandbox/payments/${transactionId}`;

export interface SandboxKeys {
  /** Signs the hosted page's address (its `token`). */
  page: string;
  /** Each provider's callback signing key (the hub verifies with the same). */
  provider(code: string): string;
}

export class SandboxProviders {
  constructor(
    private readonly deps: {
      keys: SandboxKeys;
      /** Where the hosted pages are served, as payers' browsers reach them (PAYMENTS_SANDBOX_BASE_URL). */
      baseUrl: string;
      /** Delivers callbacks to the hub, where configuration says (never where a request says). */
      sender: CallbackSender;
      /** Renders text as a QR code image (a data: URL), with a maintained QR library (infrastructure). */
      qrImage: (text: string) => Promise<string>;
      transactions: TransactionService;
      clock: Clock;
    },
  ) {}

  /** The port of each sandbox provider code. */
  ports(): Map<string, PaymentProviderPort> {
    const refunds = this.refunds;
    return new Map(
      providerCatalogue.map((p) => [
        p.code,
        {
          start: (payment) => this.start(payment),
          settle: (settlement) => this.settle(settlement),
          chargeSavedCard: (payment) => this.chargeSavedCard(payment),
          refund: (refund) => refunds.refund(refund),
        },
      ]),
    );
  }

  private refundDesk: SandboxRefunds | null = null;

  /** The sandbox's refunds (sandbox-refunds.ts): their callbacks go the way payments' do. */
  get refunds(): SandboxRefunds {
    this.refundDesk ??= new SandboxRefunds({
      providerKey: (code) => this.deps.keys.provider(code),
      sender: this.deps.sender,
      clock: this.deps.clock,
    });
    return this.refundDesk;
  }

  private token(transactionId: string): string {
    return hmacSha256Hex(this.deps.keys.page, `sandbox-page|${transactionId}`).slice(0, 32);
  }

  /** A saved card's token is one this provider issued (it keeps no vault: the token carries its own MAC). */
  private assertOwnToken(providerCode: string, providerToken: string): void {
    const [nonce, mac] = providerToken.replace(/^sbxtok_/, '').split('.');
    if (
      !providerToken.startsWith('sbxtok_') ||
      !nonce ||
      !mac ||
      !signatureMatches(mac, this.tokenMac(providerCode, nonce))
    )
      throw paymentsError('INVALID_PAYMENT_REQUEST', `userPaymentMethodId: ${providerCode} does not know this card`, {
        field: 'userPaymentMethodId',
      });
  }

  private tokenMac(providerCode: string, nonce: string): string {
    return hmacSha256Hex(this.deps.keys.provider(providerCode), `card-token|${nonce}`).slice(0, 32);
  }

  /**
   * Takes a payment: its hosted page, except for a 2D payment with a saved card, which has no page (the hub then asks
   * for a direct charge).
   */
  async start(payment: ProviderPayment): Promise<ProviderSession> {
    const providerTransactionId = `SBX-${payment.transactionId}`;
    if (payment.savedCard) {
      this.assertOwnToken(payment.providerCode, payment.savedCard.providerToken);
      if (payment.cardType === '2D') return { providerTransactionId, providerInvoiceId: null, redirectUrl: null };
    }
    const url = `${this.deps.baseUrl}${sandboxPagePath(payment.transactionId)}?token=${this.token(payment.transactionId)}`;
    return { providerTransactionId, providerInvoiceId: null, redirectUrl: url };
  }

  /**
   * A direct charge of a saved card: approved, except an amount whose last two digits are 51 (the sandbox's way to
   * show a declined token charge: insufficient funds). Pure, so a repeat answers the same.
   */
  async chargeSavedCard(payment: ProviderPayment & { providerTransactionId: string }): Promise<SavedCardCharge> {
    if (!payment.savedCard) throw new Error('a direct charge without a saved card');
    this.assertOwnToken(payment.providerCode, payment.savedCard.providerToken);
    if (payment.amount % 100 === 51) return { result: 'DECLINED', errorCode: '51', errorMessage: 'Insufficient funds' };
    return {
      result: 'AUTHORIZED',
      payment: { bankName: 'Sandbox Bank', accountHolderName: 'SANDBOX CARDHOLDER', cardNo: payment.savedCard.cardNo },
    };
  }

  /**
   * The token of a card the payer chose to save: a random nonce with the provider's MAC (so the provider recognises
   * it later without keeping it), the provider's fingerprint of the card number (the same card twice is one saved
   * method), and the card only masked. The card number goes no further.
   */
  tokenize(providerCode: string, pan: string, expiry: string): CardTokenization {
    const nonce = randomUUID().replace(/-/g, '');
    const key = this.deps.keys.provider(providerCode);
    return {
      providerToken: `sbxtok_${nonce}.${this.tokenMac(providerCode, nonce)}`,
      fingerprint: hmacSha256Hex(key, `card-fingerprint|${pan}`).slice(0, 32),
      cardNo: maskCard(pan),
      cardBrand: cardBrandOf(pan),
      expiry: /^(0[1-9]|1[0-2])\/[0-9]{2}$/.test(expiry) ? expiry : null,
    };
  }

  /**
   * A capture or a void: the sandbox moves no money, so it only answers its reference, the same for a repeat (as a real
   * provider answers a repeated capture of one payment).
   */
  async settle(settlement: ProviderSettlement): Promise<{ providerReference: string }> {
    const prefix = settlement.action === 'CAPTURE' ? 'CAP' : 'VOID';
    return { providerReference: `${prefix}-${settlement.providerTransactionId}` };
  }

  /** The payment a page shows; a wrong token or an unknown transaction is not found (nothing is revealed). */
  async payment(transactionId: string, token: string): Promise<Transaction> {
    if (!signatureMatches(token, this.token(transactionId)))
      throw paymentsError('TRANSACTION_NOT_FOUND', 'no such sandbox payment');
    return this.deps.transactions.load(transactionId);
  }

  /** The QR method's image: what a banking app would scan (provider, its transaction id, amount, currency). */
  qrFor(t: Transaction): Promise<string> {
    return this.deps.qrImage(`SANDBOXQR|${t.providerTransactionId ?? ''}|${t.amount}|${t.currency}`);
  }

  /**
   * Reports the outcome to the hub as a signed callback, sent where configuration says (the sender); answers the
   * transaction as the hub then holds it. A failure to deliver is an error the page answers with its one generic
   * message: what the callback met is never shown.
   */
  async report(
    transaction: Transaction,
    outcome: SandboxOutcome,
    tokenization: CardTokenization | null = null,
  ): Promise<Transaction> {
    const callback: ProviderCallback = {
      callbackId: randomUUID(),
      transactionId: transaction.transactionId,
      providerTransactionId: transaction.providerTransactionId ?? '',
      result: outcome.kind,
      errorCode: outcome.kind === 'DECLINED' ? outcome.errorCode : null,
      errorMessage: outcome.kind === 'DECLINED' ? outcome.errorMessage : null,
      payment:
        outcome.kind === 'AUTHORIZED'
          ? { bankName: outcome.bankName, accountHolderName: outcome.accountHolderName, cardNo: outcome.cardNo }
          : null,
      ...(outcome.kind === 'AUTHORIZED' && tokenization && { tokenization }),
      sentAt: this.deps.clock.now().toISOString(),
    };
    const code = transaction.provider.code;
    const body = JSON.stringify(callback);
    const answer = await this.deps.sender.send({
      kind: 'payment',
      providerCode: code,
      body,
      signature: hmacSha256Hex(this.deps.keys.provider(code), body),
    });
    // 409: another outcome won (the merchant cancelled first); the page shows what the hub holds either way.
    if (answer.status !== 200 && answer.status !== 409)
      throw new Error(`the hub answered the sandbox callback with ${answer.status}: ${answer.body.slice(0, 200)}`);
    return this.deps.transactions.load(transaction.transactionId);
  }
}
