/**
 * The sandbox providers' hosted pages (docs/payments-sandbox.md): plain HTML forms, no scripts. One page per step:
 * the payment with the provider's form (card, wallet, bank transfer instructions, QR), the card's 3-D Secure step,
 * and the result when there is no returnURL to go back to.
 */
import { sandboxTestCards, type Transaction } from '../../application/payments/index.js';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}
.amount{font-size:1.6rem;font-weight:600}label{display:block;margin:.5rem 0}input{font-size:1rem;padding:.3rem}
button{font-size:1rem;padding:.5rem 1rem;margin:.3rem .3rem 0 0}table{border-collapse:collapse}td{padding:.2rem .5rem}
.sandbox{background:#fff3cd;padding:.3rem .6rem;border-radius:.3rem}</style></head>
<body><p class="sandbox">SANDBOX: no real money moves.</p>
${body}
</body></html>`;
}

function summary(t: Transaction): string {
  return `<h1 id="provider">${escapeHtml(t.provider.name)}</h1>
<p>${escapeHtml(t.merchantName)} · order <code id="order-id">${escapeHtml(t.orderId)}</code></p>
<p class="amount" id="amount">${t.amount.toLocaleString('en-US')} ${escapeHtml(t.currency)}</p>
<p>${escapeHtml(t.description)}</p>`;
}

const cancelButton = `<button type="submit" name="action" value="cancel" id="cancel" formnovalidate>Cancel payment</button>`;

function form(token: string, inner: string): string {
  return `<form method="post">${hidden('token', token)}
${inner}
</form>`;
}

const testCardRows = Object.entries(sandboxTestCards)
  .map(([pan, c]) => `<tr><td><code>${pan}</code></td><td>${escapeHtml(c.label)}</td></tr>`)
  .join('\n');

/** The payment page of each method type; `qrDataUrl` is the QR method's image. */
export function paymentPage(t: Transaction, token: string, qrDataUrl: string | null): string {
  let body: string;
  switch (t.paymentMethod.type) {
    case 'CARD':
      if (t.savedCardNo) {
        // A saved card: nothing to enter; the payer confirms it and passes 3-D Secure.
        body = form(
          token,
          `<p>Saved card <code id="saved-card">${escapeHtml(t.savedCardNo)}</code></p>
<button type="submit" name="action" value="saved-card" id="pay-saved">Pay with this card</button> ${cancelButton}`,
        );
        break;
      }
      body = form(
        token,
        `<label>Card number <input name="cardNumber" id="card-number" inputmode="numeric" autocomplete="off" required></label>
<label>Expiry (MM/YY) <input name="expiry" id="expiry" value="12/30" required></label>
<label>CVV <input name="cvv" id="cvv" value="123" required></label>
${t.tokenizable ? '<label><input type="checkbox" name="saveCard" value="yes" id="save-card"> Save this card for next time</label>\n' : ''}<button type="submit" name="action" value="card" id="pay">Pay</button> ${cancelButton}`,
      );
      body += `<h2>Test cards</h2><table>${testCardRows}</table><p>3-D Secure OTP: <code>123456</code>.</p>`;
      break;
    case 'WALLET':
      body = form(
        token,
        `<p>Sign in to the sandbox wallet and approve this payment.</p>
<button type="submit" name="action" value="approve" id="approve">Approve</button>
<button type="submit" name="action" value="decline" id="decline">Decline</button> ${cancelButton}`,
      );
      break;
    case 'BANK_TRANSFER':
      body = form(
        token,
        `<table id="transfer-instructions">
<tr><td>Bank</td><td>Sandbox Bank</td></tr><tr><td>Account</td><td><code>0123456789</code></td></tr>
<tr><td>Account holder</td><td>SANDBOX PAYMENT HUB</td></tr>
<tr><td>Amount</td><td>${t.amount} ${escapeHtml(t.currency)}</td></tr>
<tr><td>Transfer content</td><td><code>${escapeHtml(t.providerTransactionId ?? '')}</code></td></tr></table>
<button type="submit" name="action" value="transfer-received" id="transfer-received">Simulate transfer received</button> ${cancelButton}`,
      );
      break;
    case 'QR':
      body = form(
        token,
        `<p><img id="qr" alt="QR code to scan with a banking app" width="240" height="240" src="${escapeHtml(qrDataUrl ?? '')}"></p>
<button type="submit" name="action" value="scan-and-pay" id="scan-and-pay">Simulate scan and pay</button> ${cancelButton}`,
      );
      break;
    default:
      body = '<p>This method has no sandbox page.</p>';
  }
  return layout(`Pay ${t.orderId}`, summary(t) + body);
}

/** The 3-D Secure step: of the card just entered (carried on, with the save choice), or of the saved card (null). */
export function threeDsPage(
  t: Transaction,
  token: string,
  entered: { cardNumber: string; saveCard: boolean; expiry: string } | null,
): string {
  const carried = entered
    ? hidden('cardNumber', entered.cardNumber) +
      (entered.saveCard ? hidden('saveCard', 'yes') + hidden('expiry', entered.expiry) : '')
    : '';
  return layout(
    '3-D Secure',
    `${summary(t)}<h2 id="three-ds">3-D Secure</h2><p>Enter the one-time password sent to your phone (sandbox: <code>123456</code>).</p>
${form(
  token,
  `${carried}<label>OTP <input name="otp" id="otp" autocomplete="one-time-code" required></label>
<button type="submit" name="action" value="otp" id="confirm-otp">Confirm</button> ${cancelButton}`,
)}`,
  );
}

export function resultPage(t: Transaction): string {
  return layout(
    `Payment ${t.status}`,
    `${summary(t)}<p>Payment status: <strong id="status">${escapeHtml(t.status)}</strong></p>
${t.errorMessage ? `<p id="error-message">${escapeHtml(t.errorMessage)}</p>` : ''}`,
  );
}

export function notFoundPage(): string {
  return layout('Not found', '<h1 id="not-found">No such payment</h1><p>The link is wrong or has been changed.</p>');
}

export function errorPage(status: number, message: string): string {
  return layout('Error', `<h1 id="error">Error ${status}</h1><p>${escapeHtml(message)}</p>`);
}
