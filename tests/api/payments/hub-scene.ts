/**
 * The scene of the hub's transaction tests: the whole app on PostgreSQL with a fixed clock, merchants shop-one
 * (terminals T1, T2) and shop-two, and the calls the tests make (signed inits, a held transaction, signed bodies).
 */
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import {
  expectHubOk,
  hub,
  hubHeaders,
  initBody,
  nowSeconds,
  onboardMerchant,
  sign,
  type Onboarded,
} from './support.js';

export interface InitData {
  transaction: Record<string, unknown> & { id: string; status: string };
  paymentInfo: Record<string, unknown>;
}

/** Call in a describe: its before/after start and stop the app; `app`, `m1`, `m2` are set once it started. */
export function useHubScene() {
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  const key = (m: Onboarded, t = 'T1') => m.keys[t]!.paymentApiKey;
  const ts = () => nowSeconds(clock);
  const s = {
    clock,
    key,
    ts,
    app: undefined as unknown as TestApp,
    m1: undefined as unknown as Onboarded,
    m2: undefined as unknown as Onboarded,
    init: (m: Onboarded, orderId: string, extra: Record<string, unknown> = {}, headers = {}) =>
      hub(
        s.app.baseUrl,
        'POST',
        '/transactions',
        { ...hubHeaders(key(m), ts()), ...headers },
        initBody(m.secretKey, orderId, extra),
      ),
    /** A transaction of m1/T1 held: the payer approves on the sandbox wallet's page, whose callback the hub applies. */
    async held(orderId: string): Promise<string> {
      const data = expectHubOk(await s.init(s.m1, orderId)) as InitData;
      const url = new URL(data.paymentInfo.redirectUrl as string);
      const res = await fetch(`${s.app.baseUrl}${url.pathname}`, {
        method: 'POST',
        body: new URLSearchParams({ token: url.searchParams.get('token')!, action: 'approve' }),
        redirect: 'manual',
      });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.include('<strong id="status">HOLDING</strong>');
      return data.transaction.id;
    },
    signedById: (m: Onboarded, transactionId: string, extra: Record<string, unknown> = {}) => ({
      transactionId,
      ...extra,
      secureHash: sign(m.secretKey, `${transactionId}|${ts()}`),
    }),
  };
  before(async () => {
    s.app = await startTestApp({ clock, background: false });
    s.m1 = await onboardMerchant(s.app.baseUrl, 'shop-one', ['T1', 'T2']);
    s.m2 = await onboardMerchant(s.app.baseUrl, 'shop-two');
  });
  after(() => s.app?.stop());
  return s;
}
