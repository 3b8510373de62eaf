/**
 * What a payment session records (docs/payments-sessions.md): the order, its breakdown lines in the seed's current
 * layout ("Breakdown item": referenceId and referenceType on the line, type PAYMENT never TRANSACTION), and what its
 * transaction tells the final IPN about the payment.
 */
import type { OrderInfo } from './transaction-details.js';

export const breakdownLineStatuses = ['PENDING', 'SUCCESS', 'FAILED', 'CANCELLED'] as const;
export type BreakdownLineStatus = (typeof breakdownLineStatuses)[number];

/** The lines a merchant backend settles with the other systems before it opens the session. */
export const settledLineTypes = ['VOUCHER', 'VPOINT'] as const;
export type SettledLineType = (typeof settledLineTypes)[number];

export type BreakdownDetails = Readonly<Record<string, string | number | boolean | readonly string[]>>;

export interface BreakdownLine {
  readonly type: 'PAYMENT' | SettledLineType;
  /** Minor units. */
  readonly amount: number;
  readonly status: BreakdownLineStatus;
  readonly referenceId: string | null;
  readonly referenceType: 'TRANSACTION' | 'RESERVATION' | 'REDEMPTION' | null;
  readonly details: BreakdownDetails | null;
}

/** A settled line as the backend sends it (its status is PENDING until the session ends). */
export interface SettledLine {
  readonly type: SettledLineType;
  readonly amount: number;
  readonly referenceId: string | null;
  readonly referenceType: 'RESERVATION' | 'REDEMPTION' | null;
  readonly details: BreakdownDetails | null;
}

export interface PaymentSessionDetails {
  readonly paymentSessionId: string;
  readonly merchantCode: string;
  readonly terminalId: string;
  readonly orderId: string;
  readonly referenceId: string;
  /** The order's amount before vouchers and points (minor units). */
  readonly originalAmount: number;
  /** The PAYMENT line: what the payer pays online (0: vouchers and points cover the order). */
  readonly amount: number;
  readonly currency: string;
  /** The backend's order creation time as it signed it (Unix ms). */
  readonly orderCreatedAt: number;
  readonly orderInfo: OrderInfo | null;
  /** Every line, the PAYMENT line (when amount > 0) last. */
  readonly breakdown: readonly BreakdownLine[];
  readonly expiresAt: string;
  readonly createdAt: string;
}

/** What the session's transaction tells its final IPN: method, provider, provider ids, the masked instrument. */
export interface SessionPaymentFacts {
  readonly methodCode: string;
  readonly providerCode: string;
  readonly providerTransactionId: string | null;
  readonly providerInvoiceId: string | null;
  readonly bankName: string | null;
  readonly accountHolderName: string | null;
  readonly cardNo: string | null;
}
