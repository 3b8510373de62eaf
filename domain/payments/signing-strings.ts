/**
 * The raw strings a merchant backend signs, exactly as the seed's signing table joins them (docs/payments-signing.md,
 * with test vectors): fields joined with `|`, amounts as their integer part, optional fields appended only when
 * present and in the stated order. The HMAC itself is application/shared/signatures.ts's; these are pure.
 */

/** An amount's integer part in minor units, no decimal separator and no exponent (100000.75 → "100000"). */
export function integerPart(amount: number): string {
  return Math.trunc(amount).toFixed(0);
}

export interface InitSigningFields {
  orderId: string;
  referenceId: string;
  amount: number;
  currency: string;
  /** orderInfo.orderCreatedAt (Unix ms); absent: its place stays, empty. */
  orderCreatedAt?: number;
  branchId?: string;
  businessUnitId?: string;
  sellerMerchantId?: string;
  paymentType?: string;
  skipHolding?: boolean;
}

/** Init payment: orderId|referenceId|amount|currency|orderCreatedAt[|branchId][|businessUnitId][|sellerMerchantId][|paymentType][|skipHolding]. */
export function initSigningString(f: InitSigningFields): string {
  const parts = [
    f.orderId,
    f.referenceId,
    integerPart(f.amount),
    f.currency,
    f.orderCreatedAt === undefined ? '' : integerPart(f.orderCreatedAt),
  ];
  for (const optional of [f.branchId, f.businessUnitId, f.sellerMerchantId, f.paymentType]) {
    if (optional !== undefined) parts.push(optional);
  }
  if (f.skipHolding !== undefined) parts.push(String(f.skipHolding));
  return parts.join('|');
}

/** How cancel and confirm name their transaction: transactionId wins over the pair. */
export type TransactionReference =
  { readonly transactionId: string } | { readonly orderId: string; readonly referenceId: string };

/** Cancel / confirm: transactionId|timestamp, or orderId|referenceId|timestamp when no transactionId was sent. */
export function cancelConfirmSigningString(ref: TransactionReference, timestamp: string): string {
  return 'transactionId' in ref
    ? [ref.transactionId, timestamp].join('|')
    : [ref.orderId, ref.referenceId, timestamp].join('|');
}

/**
 * Removing a saved payment method (an addition to the seed's table): userPaymentMethodId|X-MiniApp-User-ID|timestamp,
 * so a signature names the user as well as the method.
 */
export function removeSavedMethodSigningString(userPaymentMethodId: string, userId: string, timestamp: string): string {
  return [userPaymentMethodId, userId, timestamp].join('|');
}

// ---- refunds and snapshots (docs/payments-refunds.md, "Signing") ----

/** Refund: the transaction (transactionId wins over the pair), amount, refundReferenceId, refundType, [refundVpoint]. */
export interface RefundSigningFields {
  amount: number;
  refundReferenceId: string;
  /** As sent (FULL, full, Partial, ...): the string signs what the request carries. */
  refundType: string;
  /** Enters the string (before timestamp) only when sent. */
  refundVpoint?: number;
}

/**
 * Refund with transactionId: transactionId|amount|refundReferenceId|refundType[|refundVpoint]|timestamp; with the pair
 * (no transactionId): orderId|referenceId|amount|refundReferenceId|refundType[|refundVpoint]|timestamp.
 */
export function refundSigningString(ref: TransactionReference, f: RefundSigningFields, timestamp: string): string {
  const head = 'transactionId' in ref ? [ref.transactionId] : [ref.orderId, ref.referenceId];
  const parts = [...head, integerPart(f.amount), f.refundReferenceId, f.refundType];
  if (f.refundVpoint !== undefined) parts.push(integerPart(f.refundVpoint));
  parts.push(timestamp);
  return parts.join('|');
}

export interface TransactionSnapshotSigningFields {
  orderId: string;
  referenceId: string;
  amount: number;
  currency: string;
  /** orderInfo.orderCreatedAt (Unix ms); absent: its place stays, empty (as in init). */
  orderCreatedAt?: number;
  branchId?: string;
  businessUnitId?: string;
  status: string;
  /** Unix ms. */
  processedAt: number;
}

/**
 * Snapshot transaction: orderId|referenceId|amount|currency|orderCreatedAt[|branchId][|businessUnitId]|status|
 * processedAt|timestamp; never paymentType or skipHolding (the snapshot has neither).
 */
export function transactionSnapshotSigningString(f: TransactionSnapshotSigningFields, timestamp: string): string {
  const parts = [
    f.orderId,
    f.referenceId,
    integerPart(f.amount),
    f.currency,
    f.orderCreatedAt === undefined ? '' : integerPart(f.orderCreatedAt),
  ];
  for (const optional of [f.branchId, f.businessUnitId]) if (optional !== undefined) parts.push(optional);
  parts.push(f.status, integerPart(f.processedAt), timestamp);
  return parts.join('|');
}

export interface RefundSnapshotSigningFields {
  transactionId: string;
  amount: number;
  currency: string;
  refundReferenceId: string;
  refundType: string;
  status: string;
  processedAt: number;
}

/** Snapshot refund: transactionId|amount|currency|refundReferenceId|refundType|status|processedAt|timestamp. */
export function refundSnapshotSigningString(f: RefundSnapshotSigningFields, timestamp: string): string {
  return [
    f.transactionId,
    integerPart(f.amount),
    f.currency,
    f.refundReferenceId,
    f.refundType,
    f.status,
    integerPart(f.processedAt),
    timestamp,
  ].join('|');
}
