/**
 * The payment hub's demo as a test drives it through main.ts (README, "Payments"): the credentials the demo seed
 * kept, the signed headers of its first terminal, and a sandbox wallet payment approved on the hosted page (HOLDING).
 */
import fs from 'node:fs';
import path from 'node:path';
import { hmacSha256Hex } from '../../application/shared/signatures.js';
import { until } from './main-process.js';

export interface DemoCredentials {
  gateway: { payments: { clientId: string; clientSecret: string } };
  payments: { secretKey: string; terminals: { paymentApiKey: string }[] };
}

/** The demo seed runs after the start line: waits for its credentials in `dataDir`. */
export const demoCredentials = (dataDir: string): Promise<DemoCredentials> =>
  until('the demo credentials', () => {
    const file = path.join(dataDir, 'demo-credentials.json');
    if (!fs.existsSync(file)) return undefined;
    let c: Partial<DemoCredentials>;
    try {
      c = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<DemoCredentials>;
    } catch {
      return undefined; // read while a seed was writing it
    }
    return c.payments && c.gateway?.payments ? (c as DemoCredentials) : undefined;
  });

/** Gateway and hub headers of the demo's first terminal. */
export const demoHubHeaders = (creds: DemoCredentials, requestId: string): Record<string, string> => ({
  client_id: creds.gateway.payments.clientId,
  client_secret: creds.gateway.payments.clientSecret,
  'X-Payment-API-Key': creds.payments.terminals[0]!.paymentApiKey,
  'X-Request-ID': requestId,
  'X-Timestamp': String(Math.floor(Date.now() / 1000)),
  'Content-Type': 'application/json',
});

/** A signed WALLET init of `orderId` (150000 VND), approved on the sandbox page: answers its id and the page's HTML. */
export async function holdDemoWalletPayment(
  base: string,
  creds: DemoCredentials,
  orderId: string,
  description: string,
): Promise<{ transactionId: string; page: string }> {
  const referenceId = `REF-${orderId}`;
  const body = {
    orderId,
    referenceId,
    amount: 150000,
    currency: 'VND',
    description,
    paymentMethodCode: 'WALLET',
    providerId: '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e02',
    orderInfo: { orderCreatedAt: 1772359200000 },
  };
  const secureHash = hmacSha256Hex(creds.payments.secretKey, `${orderId}|${referenceId}|150000|VND|1772359200000`);
  const init = await fetch(`${base}/api/payments/v1/transactions`, {
    method: 'POST',
    headers: demoHubHeaders(creds, `${orderId}-${Date.now()}`),
    body: JSON.stringify({ ...body, secureHash }),
  });
  const data = ((await init.json()) as { data: { transaction: { id: string }; paymentInfo: { redirectUrl: string } } })
    .data;
  const page = new URL(data.paymentInfo.redirectUrl);
  const approved = await fetch(`${base}${page.pathname}`, {
    method: 'POST',
    body: new URLSearchParams({ token: page.searchParams.get('token')!, action: 'approve' }),
  });
  return { transactionId: data.transaction.id, page: await approved.text() };
}
