/**
 * The world the authorization matrix probes (matrix.test.ts): the whole app on real PostgreSQL, two more gateway
 * parties, two shop/checkout merchants with their keys, and things of user A and merchant A that another user or
 * merchant will name: a checkout reservation and a held promotion, an order in the order view, a shop reservation, an
 * uploaded file. All made through the interfaces themselves, with real credentials.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { newCommandContext } from '../../../application/shared/command-context.js';
import { issueTestAccessToken } from '../../support/access-tokens.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import { gatewayHeaders } from '../../support/gateway.js';
import { checkoutOk, checkoutScene, line, listed, order } from '../checkout/checkout-support.js';
import { png } from '../files/media.js';
import { form, upload } from '../files/support.js';
import { createdBody, expectOrders, merchantWithKey, sendWebhook } from '../orders/support.js';
import { expectHubOk, hub, hubHeaders, initBody, onboardMerchant, type Onboarded } from '../payments/support.js';
import { call, OperatorApi, reserveBody, Shopper, type HeaderSet, type ShopMerchant } from '../support.js';

export interface MatrixWorld {
  app: TestApp;
  /** A gateway party granted only `files`: "another party" for every other interface. */
  otherParty: HeaderSet;
  /** A gateway party granted only `shop`: "another party" for the files interface. */
  filesOutsider: HeaderSet;
  /** Merchant A (M001, whose things are named) and merchant B (another merchant with a valid key). */
  merchantA: ShopMerchant;
  merchantB: ShopMerchant;
  checkout: { userA: string; reservationKey: string; promotionId: number };
  orders: { merchant: string; orderId: string; tokenA: string; tokenB: string; authOnlyA: string };
  shop: { buyer: string; reservationKey: string };
  files: { fileId: string };
  /** A transaction of payment merchant P1, and P2: another payment merchant with its own key. */
  payments: { transactionId: string; p2: Onboarded };
  stop(): Promise<void>;
}

async function registerParty(app: TestApp, partyId: string, interfaces: ('files' | 'shop')[]): Promise<HeaderSet> {
  const { parties, check } = app.container.services.gateway;
  const asTests = () => newCommandContext({ actor: { operator: 'tests' } });
  await parties.register(asTests(), partyId, {
    name: partyId,
    kind: 'INTERNAL',
    interfaces,
    ipAllowlist: [],
    rateLimits: [],
  });
  const pair = { client_id: partyId, client_secret: `${partyId}-secret-0123456789abcdef0123` };
  await parties.issueCredential(asTests(), partyId, {
    environments: [check.environment],
    clientId: pair.client_id,
    clientSecret: pair.client_secret,
  });
  return pair;
}

export async function matrixWorld(): Promise<MatrixWorld> {
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'matrix-files-'));
  const app = await startTestApp({ env: { FILES_DIR: filesDir } });
  const otherParty = await registerParty(app, 'matrix-files-only', ['files']);
  const filesOutsider = await registerParty(app, 'matrix-shop-only', ['shop']);

  // Checkout: merchant A (M001) reserves one of user A's promotions and leaves another held in the wallet.
  const scene = await checkoutScene(app);
  const merchantB = await scene.operator.createMerchant({ merchantId: 'MATRIX_B' });
  const a = scene.caller('matrix-user-a');
  const [reserved, held] = await scene.issue(await scene.master(), [a.userId, a.userId]);
  const someOrders = [order('M001', [line('i1', 2, 75_000)])];
  await listed(a, held!.promotion_id, someOrders);
  const checkoutReservation = checkoutOk(
    await a.reserve(reserved!.promotion_id, someOrders, { orderId: 'order-1' }),
  ).reservation_key;

  // Order view: user A's order, read by A once (so that B's 404 is about ownership, not the read model's lag).
  const ordersMerchant = 'MATRIX_ORD';
  const keys = await merchantWithKey(app, ordersMerchant);
  const customer = { customer_id: 'matrix-cust-a', name: 'A', phone: '0901234567', email: 'a@example.vn' };
  expectOrders(await sendWebhook(app, 'created', createdBody('matrix-o1', {}, { customer }), { keys }), 200, 0);
  const tokenA = await issueTestAccessToken(app, { userId: 'matrix-cust-a', scopes: ['profile'] });
  const tokenB = await issueTestAccessToken(app, { userId: 'matrix-cust-b', scopes: ['profile'] });
  const authOnlyA = await issueTestAccessToken(app, { userId: 'matrix-cust-a', scopes: ['auth'] });
  await eventually(async () => {
    const own = await call(app.baseUrl, 'GET', `/order/cov/app/v1/orders/${ordersMerchant}/matrix-o1`, {
      headers: { ...gatewayHeaders(), Authorization: `Bearer ${tokenA}` },
    });
    expect(own.status, own.text).to.equal(200);
  });

  // Shop: a buyer's reservation at merchant A.
  const operator = new OperatorApi(app.baseUrl);
  const pool = await operator.createPool((await operator.createActiveCampaign()).id, { totalQuantity: 5 });
  const buyer = new Shopper(app.baseUrl, scene.merchant, 'matrix-buyer');
  const shopReservation = (await buyer.reserved(reserveBody([{ pool }]))).reservationKey;

  // Files: user A's upload.
  const uploaded = await upload(app.baseUrl, tokenA, form('file', png(), 'a.png', 'image/png'));
  expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(201);

  // Payment hub: a transaction of P1 (initialised through the hub, signed with P1's secretKey).
  const [p1, p2] = [await onboardMerchant(app.baseUrl, 'matrix-p1'), await onboardMerchant(app.baseUrl, 'matrix-p2')];
  const now = String(Math.floor(Date.now() / 1000));
  const init = await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(p1.keys.T1!.paymentApiKey, now), {
    ...initBody(p1.secretKey, 'MATRIX-PAY-1'),
  });
  const transactionId = (expectHubOk(init) as { transaction: { id: string } }).transaction.id;

  return {
    app,
    otherParty,
    filesOutsider,
    merchantA: scene.merchant,
    merchantB,
    checkout: { userA: a.userId, reservationKey: checkoutReservation, promotionId: held!.promotion_id },
    orders: { merchant: ordersMerchant, orderId: 'matrix-o1', tokenA, tokenB, authOnlyA },
    shop: { buyer: buyer.userId, reservationKey: shopReservation },
    files: { fileId: uploaded.body.data!.fileId as string },
    payments: { transactionId, p2 },
    async stop() {
      await app.stop();
      fs.rmSync(filesDir, { recursive: true, force: true });
    },
  };
}
