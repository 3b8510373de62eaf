import { expect } from 'chai';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { operatorHeaders } from '../support.js';
import {
  expectHubOk,
  hub,
  hubHeaders,
  initBody,
  onboardMerchant,
  sandboxPages,
  walletProviderId,
  type Onboarded,
} from './support.js';

const qrProviderId = '3f0c9a52-6f0e-5b8e-9a51-0c5a9b1d2e04';
const none = { bankName: null, accountHolderName: null, cardNo: null };

interface InitData {
  transaction: { id: string };
  paymentInfo: { redirectUrl: string; providerTransaction: string };
}

/**
 * The seed's IPN table: `bankName`, `accountHolderName` and `cardNo` are "null for wallets/QR" (docs/ipn.md,
 * "Fields"). Over the whole app (PostgreSQL, projectors, the IPN outbox): the sandbox wallet's page names a holder
 * ("SANDBOX WALLET USER") and a QR provider's callback may report a bank, a holder and a card; neither reaches the
 * transaction, GET /transactions or the notification.
 */
describe('Payment hub: wallets and QR name no instrument (HTTP, PostgreSQL, IPN outbox)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let m: Onboarded;
  before(async () => {
    app = await startTestApp();
    m = await onboardMerchant(app.baseUrl, 'instrument');
    const res = await fetch(
      `${app.baseUrl}/operator/v1/payment-merchants/instrument/terminals/T1/payment-methods/QR_CODE`,
      {
        method: 'PUT',
        headers: { ...(operatorHeaders() as Record<string, string>), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 'QR',
          category: 'QR',
          names: { vi: 'Mã QR', en: 'QR code' },
          iconUrl: 'https://cdn.example/qr.png',
          requiresRedirect: true,
          sortOrder: 3,
          providers: [
            {
              providerCode: 'SANDBOX_QR',
              priority: 1,
              currencies: [{ currency: 'VND', minAmount: 1, maxAmount: 100_000_000 }],
            },
          ],
        }),
      },
    );
    expect(res.status, await res.text()).to.equal(200);
  });
  after(() => app?.stop());

  const ts = () => String(Math.floor(Date.now() / 1000));
  const init = async (orderId: string, extra: Record<string, unknown>) =>
    expectHubOk(
      await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(m.keys.T1!.paymentApiKey, ts()), {
        ...initBody(m.secretKey, orderId, extra),
      }),
    ) as InitData;
  const lookup = async (id: string) =>
    (
      expectHubOk(
        await hub(app.baseUrl, 'GET', `/transactions?transactionId=${id}`, hubHeaders(m.keys.T1!.paymentApiKey, ts())),
      ) as { items: Record<string, unknown>[] }
    ).items[0]!;
  const notifications = (id: string) =>
    app.container
      .knex('payments_ipn_notifications')
      .where({ transaction_id: id })
      .orderBy('position')
      .select('ipn_status', 'payload') as Promise<{ ipn_status: string; payload: Record<string, unknown> }[]>;
  const instrumentOf = (o: Record<string, unknown>) => ({
    bankName: o.bankName,
    accountHolderName: o.accountHolderName,
    cardNo: o.cardNo,
  });

  it('a wallet payment approved on the sandbox page: GET and the HOLDING notification carry no holder name', async () => {
    const d = await init('INS-WALLET', { paymentMethodCode: 'WALLET', providerId: walletProviderId });
    const page = await sandboxPages(() => app.baseUrl).submit(d.paymentInfo.redirectUrl, { action: 'approve' });
    expect(page.text).to.include('<strong id="status">HOLDING</strong>');
    const t = await lookup(d.transaction.id);
    expect(t.status).to.equal('HOLDING');
    expect(instrumentOf(t)).to.deep.equal(none);
    await eventually(async () => {
      const rows = await notifications(d.transaction.id);
      expect(rows.map((r) => r.ipn_status)).to.deep.equal(['HOLDING']);
      expect(rows[0]!.payload).to.include({ paymentMethod: 'E_WALLET' });
      expect(instrumentOf(rows[0]!.payload)).to.deep.equal(none);
    });
  });

  it('a QR payment whose provider reports a bank, a holder and a card: none of them is kept or notified', async () => {
    const d = await init('INS-QR', { paymentMethodCode: 'QR_CODE', providerId: qrProviderId });
    const providerKey = hmacSha256Hex(app.secrets.PAYMENTS_SECRETS_KEY, 'sandbox-provider-key:SANDBOX_QR');
    const body = JSON.stringify({
      callbackId: 'ins-qr-1',
      transactionId: d.transaction.id,
      providerTransactionId: d.paymentInfo.providerTransaction,
      result: 'AUTHORIZED',
      errorCode: null,
      errorMessage: null,
      payment: { bankName: 'Ngân hàng QR', accountHolderName: 'NGUYEN VAN A', cardNo: '970400******0018' },
      sentAt: new Date().toISOString(),
    });
    const res = await fetch(`${app.baseUrl}/payment-providers/v1/SANDBOX_QR/callbacks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Provider-Signature': hmacSha256Hex(providerKey, body) },
      body,
    });
    expect(res.status, await res.text()).to.equal(200);
    const t = await lookup(d.transaction.id);
    expect(t.status).to.equal('COMPLETED');
    expect(instrumentOf(t)).to.deep.equal(none);
    await eventually(async () => {
      const rows = await notifications(d.transaction.id);
      expect(rows.map((r) => r.ipn_status)).to.deep.equal(['COMPLETED']);
      expect(rows[0]!.payload).to.include({ paymentMethod: 'QR_CODE' });
      expect(instrumentOf(rows[0]!.payload)).to.deep.equal(none);
    });
  });
});
