/**
 * What the sandbox providers' hosted page decides (docs/payments-sandbox.md): the documented test cards and the
 * 3-D Secure step, the wallet's approve/decline, the bank transfer's and the QR's "simulate" actions. Pure.
 */

export type SandboxOutcome =
  | { kind: 'AUTHORIZED'; cardNo: string | null; accountHolderName: string | null; bankName: string | null }
  | { kind: 'DECLINED'; errorCode: string; errorMessage: string }
  | { kind: 'CANCELLED' };

/** The test cards (any future expiry, any 3-digit CVV) and what they do. */
export const sandboxTestCards = {
  '4111111111111111': { after3ds: 'approve', label: 'approved after 3-D Secure (OTP 123456)' },
  '4000000000003063': { after3ds: 'fail', label: '3-D Secure fails whatever the OTP' },
  '4000000000000002': { decline: ['05', 'Do not honor'], label: 'declined by the issuer' },
  '4000000000009995': { decline: ['51', 'Insufficient funds'], label: 'declined: insufficient funds' },
} as const satisfies Record<
  string,
  { label: string; after3ds?: 'approve' | 'fail'; decline?: readonly [string, string] }
>;

export const sandboxOtp = '123456';

/** A card number as the hub may keep it: first 6 and last 4 digits. */
export const maskCard = (pan: string) =>
  `${pan.slice(0, 6)}${'*'.repeat(Math.max(0, pan.length - 10))}${pan.slice(-4)}`;

export const digitsOnly = (pan: string) => pan.replace(/[\s-]/g, '');

/** The scheme a card number names by its first digit, as a saved card shows it. */
export const cardBrandOf = (pan: string) => ({ '4': 'VISA', '5': 'MASTERCARD', '3': 'AMEX' })[pan[0] ?? ''] ?? 'CARD';

/**
 * After the card form: a 3-D Secure step, or at once an outcome (declined, an unknown card, or a 2D payment, which has
 * no 3-D Secure step: the approving cards are approved at once).
 */
export function afterCardEntry(
  panInput: string,
  cardType: '2D' | '3D' = '3D',
): { next: '3DS'; pan: string } | { next: 'DONE'; outcome: SandboxOutcome } {
  const pan = digitsOnly(panInput);
  const card = (sandboxTestCards as Record<string, { after3ds?: string; decline?: readonly [string, string] }>)[pan];
  if (!card)
    return {
      next: 'DONE',
      outcome: { kind: 'DECLINED', errorCode: '14', errorMessage: 'Invalid card number (not a sandbox test card)' },
    };
  if (card.decline)
    return { next: 'DONE', outcome: { kind: 'DECLINED', errorCode: card.decline[0], errorMessage: card.decline[1] } };
  if (cardType === '2D')
    return {
      next: 'DONE',
      outcome: {
        kind: 'AUTHORIZED',
        cardNo: maskCard(pan),
        accountHolderName: 'SANDBOX CARDHOLDER',
        bankName: 'Sandbox Bank',
      },
    };
  return { next: '3DS', pan };
}

/** After the 3-D Secure step. */
export function afterOtp(panInput: string, otp: string): SandboxOutcome {
  const pan = digitsOnly(panInput);
  const card = (sandboxTestCards as Record<string, { after3ds?: string }>)[pan];
  if (card?.after3ds === 'approve' && otp === sandboxOtp)
    return {
      kind: 'AUTHORIZED',
      cardNo: maskCard(pan),
      accountHolderName: 'SANDBOX CARDHOLDER',
      bankName: 'Sandbox Bank',
    };
  return { kind: 'DECLINED', errorCode: '3DS_FAILED', errorMessage: '3-D Secure authentication failed' };
}

/** The 3-D Secure step of a saved card (its number is not re-entered): OTP 123456 approves, any other fails. */
export function afterSavedCardOtp(cardNo: string, otp: string): SandboxOutcome {
  if (otp === sandboxOtp)
    return { kind: 'AUTHORIZED', cardNo, accountHolderName: 'SANDBOX CARDHOLDER', bankName: 'Sandbox Bank' };
  return { kind: 'DECLINED', errorCode: '3DS_FAILED', errorMessage: '3-D Secure authentication failed' };
}

/** Wallet, bank transfer and QR actions. */
export function afterAction(
  action: 'approve' | 'decline' | 'cancel' | 'transfer-received' | 'scan-and-pay',
): SandboxOutcome {
  switch (action) {
    case 'approve':
      return { kind: 'AUTHORIZED', cardNo: null, accountHolderName: 'SANDBOX WALLET USER', bankName: null };
    case 'transfer-received':
      return {
        kind: 'AUTHORIZED',
        cardNo: null,
        accountHolderName: 'SANDBOX TRANSFER SENDER',
        bankName: 'Sandbox Bank',
      };
    case 'scan-and-pay':
      return { kind: 'AUTHORIZED', cardNo: null, accountHolderName: null, bankName: null };
    case 'decline':
      return { kind: 'DECLINED', errorCode: 'WALLET_DECLINED', errorMessage: 'The wallet declined the payment' };
    case 'cancel':
      return { kind: 'CANCELLED' };
  }
}
