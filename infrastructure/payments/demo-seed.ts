/**
 * The payment hub demo for `npm start` (docs/payments.md, "Demo"; README, "Payments"): merchant `demo-shop` with two
 * terminals, a paymentApiKey each, its secretKey, and all four sandbox methods with limits on both terminals.
 * Idempotent across restarts: the credentials (shown once) are kept under `payments` in
 * `<dataDir>/demo-credentials.json`; a lost or stale one is replaced (a new key, a rotated secret).
 */
import { hmacSha256Hex } from '../../application/shared/signatures.js';
import { keepDemoCredentials, readDemoCredentials } from '../shared/demo-credentials.js';
import type { PaymentMethodConfig, PaymentsServices } from '../../application/payments/index.js';
import { newCommandContext } from '../../application/shared/command-context.js';
import type { DemoSeed } from '../shared/demo-seed.js';
import type { PaymentsConfig } from './config.js';
import { startDemoReceiver } from './demo-receiver.js';

export interface PaymentsDemoData {
  merchantCode: string;
  secretKey: string;
  terminals: { terminalId: string; paymentApiKey: string }[];
}

const asSeed = () => newCommandContext({ actor: { operator: 'demo-seed' } });
const merchantCode = 'demo-shop';
const terminalIds = ['DEMO-T1', 'DEMO-T2'];

const vnd = (minAmount: number, maxAmount: number) => [{ currency: 'VND', minAmount, maxAmount }];

export const demoPaymentMethods: PaymentMethodConfig[] = [
  {
    code: 'CREDIT_CARD',
    type: 'CARD',
    category: 'CREDIT',
    names: { vi: 'Thẻ tín dụng / ghi nợ quốc tế', en: 'Credit or debit card' },
    iconUrl: 'https://cdn.example.vn/payments/card.png',
    supportsTokenization: true,
    requiresRedirect: true,
    verificationAmount: 1000,
    sortOrder: 1,
    autoCapture: null,
    enabled: true,
    providers: [{ providerCode: 'SANDBOX_CARD', priority: 1, currencies: vnd(10_000, 200_000_000) }],
  },
  {
    code: 'WALLET',
    type: 'WALLET',
    category: 'EWALLET',
    names: { vi: 'Ví điện tử', en: 'E-wallet' },
    iconUrl: 'https://cdn.example.vn/payments/wallet.png',
    supportsTokenization: false,
    requiresRedirect: true,
    verificationAmount: null,
    sortOrder: 2,
    autoCapture: false,
    enabled: true,
    providers: [{ providerCode: 'SANDBOX_WALLET', priority: 1, currencies: vnd(1_000, 50_000_000) }],
  },
  {
    code: 'BANK_TRANSFER',
    type: 'BANK_TRANSFER',
    category: 'BANK_TRANSFER',
    names: { vi: 'Chuyển khoản ngân hàng', en: 'Bank transfer' },
    iconUrl: 'https://cdn.example.vn/payments/bank.png',
    supportsTokenization: false,
    requiresRedirect: true,
    verificationAmount: null,
    sortOrder: 3,
    autoCapture: null,
    enabled: true,
    providers: [{ providerCode: 'SANDBOX_BANK', priority: 1, currencies: vnd(10_000, 500_000_000) }],
  },
  {
    code: 'QR_CODE',
    type: 'QR',
    category: 'QR',
    names: { vi: 'Quét mã QR', en: 'QR code' },
    iconUrl: 'https://cdn.example.vn/payments/qr.png',
    supportsTokenization: false,
    requiresRedirect: true,
    verificationAmount: null,
    sortOrder: 4,
    autoCapture: null,
    enabled: true,
    providers: [{ providerCode: 'SANDBOX_QR', priority: 1, currencies: vnd(1_000, 20_000_000) }],
  },
];

/**
 * The demo merchant's postback URL: the sample receiver `npm start` runs (demo-receiver.ts) at the port it is listening on; with
 * no receiver listening (PAYMENTS_DEMO_RECEIVER_PORT 0, or its port taken), an address of the reserved `.example`
 * domain that never resolves, so the demo's IPNs reach nothing rather than whatever holds the port (their failed
 * attempts show in the attempt log).
 */
export const demoIpnUrl = (receiverPort: number | null) =>
  receiverPort ? `http://127.0.0.1:${receiverPort}/api/v1/payment-webhook` : 'https://demo-shop.example/ipn';

export async function seedPaymentsDemo(
  services: PaymentsServices,
  dataDir: string,
  /** The port the sample receiver is listening on; null: none is. */
  receiverPort: number | null = null,
): Promise<PaymentsDemoData> {
  const saved = readDemoCredentials(dataDir).payments as PaymentsDemoData | undefined;
  const { onboarding, directory, signatures } = services;

  let merchant = await onboarding.get(merchantCode).catch(() => null);
  let secretKey = saved?.secretKey;
  if (!merchant) {
    const onboarded = await onboarding.onboard(asSeed(), {
      merchantCode,
      name: 'Demo Shop – Cửa hàng mẫu',
      ipnUrl: demoIpnUrl(receiverPort),
      maxIpnRetries: 5,
    });
    merchant = onboarded.merchant;
    secretKey = onboarded.secret.secretKey;
  }
  // An older demo database, another receiver port or none: the postback follows the sample receiver.
  if (merchant.ipnUrl !== demoIpnUrl(receiverPort))
    merchant = await onboarding.changeIpn(asSeed(), merchantCode, { ipnUrl: demoIpnUrl(receiverPort) });
  const terminals: PaymentsDemoData['terminals'] = [];
  for (const terminalId of terminalIds) {
    if (!merchant.terminals.some((t) => t.terminalId === terminalId))
      merchant = await onboarding.addTerminal(asSeed(), merchantCode, { terminalId, name: `Quầy ${terminalId}` });
    let paymentApiKey = saved?.terminals.find((t) => t.terminalId === terminalId)?.paymentApiKey;
    const check = paymentApiKey ? await directory.checkKey(paymentApiKey) : undefined;
    if (!check?.ok || check.caller.terminalId !== terminalId)
      paymentApiKey = (await onboarding.issueApiKey(asSeed(), merchantCode, terminalId, { expiresAt: null }))
        .paymentApiKey;
    terminals.push({ terminalId, paymentApiKey: paymentApiKey! });
    const configured = merchant.terminals.find((t) => t.terminalId === terminalId)!.methods.map((m) => m.code);
    for (const method of demoPaymentMethods.filter((m) => !configured.includes(m.code)))
      merchant = await onboarding.configureMethod(asSeed(), merchantCode, terminalId, method);
  }
  // A kept secretKey that no longer verifies (a fresh database) is replaced; the old one stops at once.
  const caller = { merchantCode, terminalId: terminalIds[0]!, apiKeyId: '' };
  const verifies = secretKey
    ? await signatures.verify(caller, 'demo', hmacSha256Hex(secretKey, 'demo')).then(
        () => true,
        () => false,
      )
    : false;
  if (!verifies) secretKey = (await onboarding.rotateSecret(asSeed(), merchantCode, 0)).secretKey;

  const data: PaymentsDemoData = { merchantCode, secretKey: secretKey!, terminals };
  keepDemoCredentials(dataDir, { payments: data });
  return data;
}

/**
 * The hub's module seed (context-module.ts, `demo`): the sample receiver first (the merchant's postback names it only
 * when it listens), then the merchant, and the banner's lines.
 */
export const paymentsDemo: DemoSeed<PaymentsServices, PaymentsConfig> = async (services, demo) => {
  const receiver = await startDemoReceiver(demo.config.PAYMENTS_DEMO_RECEIVER_PORT, demo);
  const payments = await seedPaymentsDemo(services, demo.config.DATA_DIR, receiver?.port ?? null);
  receiver?.serve(payments.secretKey);
  return {
    lines: [
      `Payment hub demo (docs/payments.md; README, "Payments"):`,
      `  merchant:             ${payments.merchantCode}  secretKey ${payments.secretKey}`,
      ...payments.terminals.map((t) => `  ${`${t.terminalId}:`.padEnd(22)}X-Payment-API-Key ${t.paymentApiKey}`),
      `  methods:              CREDIT_CARD, WALLET (holds), BANK_TRANSFER, QR_CODE; API ${demo.shownAt}/api/payments/v1`,
      receiver
        ? `  IPN postback:         ${demoIpnUrl(receiver.port)} (sample receiver, logs "IPN received"; docs/ipn.md)`
        : `  IPN postback:         ${demoIpnUrl(null)} (no sample receiver: PAYMENTS_DEMO_RECEIVER_PORT is 0 or taken)`,
    ],
  };
};
