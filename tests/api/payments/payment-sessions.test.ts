import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fixedClock } from '../../../application/shared/clock.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { eventually } from '../../support/eventually.js';
import {
  expectHubError,
  expectHubOk,
  hub,
  hubHeaders,
  initBody,
  nowSeconds,
  onboardMerchant,
  sandboxPages,
  sign,
  type Onboarded,
} from './support.js';

interface Session {
  paymentSessionId: string;
  orderId: string;
  referenceId: string;
  status: string;
  amount: number;
  currency: string;
  originalAmount: number;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  breakdown: {
    type: string;
    amount: number;
    status: string;
    referenceId: string | null;
    referenceType: string | null;
  }[];
  transactionId?: string;
  orderInfo: unknown;
}

const createdAt = 1772359200000;
const voucherLine = {
  type: 'VOUCHER',
  amount: 30_000,
  referenceId: 'RSV-1',
  referenceType: 'RESERVATION',
  details: { voucherCode: 'V-1', promotionId: 'P-1' },
};
const pointsLine = { type: 'VPOINT', amount: 20_000, details: { points: '20000' } };

/**
 * Payment sessions over HTTP on the whole app (PostgreSQL, relay, projectors, the process manager, the timer job, the
 * IPN outbox; docs/payments-sessions.md): create, get, cancel and their codes, a session paid through the sandbox
 * wallet, racing writers, and the expiry timer on an injected clock.
 */
describe('Payment sessions (HTTP, PostgreSQL)', function () {
  this.timeout(60_000);
  const clock = fixedClock('2026-03-01T10:00:00.000Z');
  let app: TestApp;
  let m: Onboarded;
  let other: Onboarded;
  before(async () => {
    app = await startTestApp({ clock });
    m = await onboardMerchant(app.baseUrl, 'sessions', ['T1', 'T2']);
    other = await onboardMerchant(app.baseUrl, 'sessions-other');
  });
  after(() => app?.stop());

  const ts = () => nowSeconds(clock);
  const key = (t = 'T1', who = m) => who.keys[t]!.paymentApiKey;
  const sessionBody = (
    orderId: string,
    extra: Record<string, unknown> = {},
    secretKey = m.secretKey,
  ): Record<string, unknown> => {
    const body: Record<string, unknown> = {
      orderId,
      referenceId: `REF-${orderId}`,
      originalAmount: 150_000,
      currency: 'VND',
      createdAt,
      orderInfo: { customerName: 'Nguyen Van A' },
      breakdown: [voucherLine, pointsLine],
      ...extra,
    };
    return {
      ...body,
      secureHash: sign(
        secretKey,
        `${String(body.orderId)}|${String(body.referenceId)}|${Math.trunc(Number(body.originalAmount))}|${String(body.currency)}|${String(body.createdAt)}`,
      ),
    };
  };
  const create = (body: Record<string, unknown>, headers = hubHeaders(key(), ts())) =>
    hub(app.baseUrl, 'POST', '/payment-sessions', headers, body);
  const created = async (orderId: string, extra: Record<string, unknown> = {}) =>
    expectHubOk(await create(sessionBody(orderId, extra))) as Session;
  const get = (query: string, apiKey: string | null = key()) =>
    hub(app.baseUrl, 'GET', `/payment-sessions?${query}`, hubHeaders(apiKey ?? undefined, ts()));
  const cancelBody = (ref: Record<string, string>, timestamp = ts()) => ({
    ...ref,
    reason: 'out of stock',
    secureHash: sign(
      m.secretKey,
      ref.paymentSessionId ? `${ref.paymentSessionId}|${timestamp}` : `${ref.orderId}|${ref.referenceId}|${timestamp}`,
    ),
  });
  const cancel = (ref: Record<string, string>, apiKey = key()) => {
    const timestamp = ts();
    return hub(
      app.baseUrl,
      'PUT',
      '/payment-sessions/cancel',
      hubHeaders(apiKey, timestamp),
      cancelBody(ref, timestamp),
    );
  };
  const initFor = (s: Session, extra: Record<string, unknown> = {}) =>
    hub(
      app.baseUrl,
      'POST',
      '/transactions',
      hubHeaders(key(), ts()),
      initBody(m.secretKey, s.orderId, {
        amount: s.amount,
        referenceId: s.referenceId,
        paymentSessionId: s.paymentSessionId,
        ...extra,
      }),
    );
  const ipnRows = (transactionId: string) =>
    app.container
      .knex('payments_ipn_notifications')
      .where({ transaction_id: transactionId })
      .orderBy('position')
      .select('event_type', 'transaction_type', 'ipn_status', 'payload');

  describe('create (POST /payment-sessions)', () => {
    it('answers the session: PENDING, the PAYMENT line added (originalAmount − the lines), every seed field', async () => {
      const s = await created('S-1');
      expect(s).to.have.all.keys(
        'paymentSessionId',
        'orderId',
        'referenceId',
        'status',
        'amount',
        'currency',
        'originalAmount',
        'createdAt',
        'updatedAt',
        'expiresAt',
        'breakdown',
        'orderInfo',
      );
      expect(s).to.deep.include({
        orderId: 'S-1',
        referenceId: 'REF-S-1',
        status: 'PENDING',
        amount: 100_000,
        originalAmount: 150_000,
        currency: 'VND',
        createdAt: clock.now().toISOString(),
        // The default lifetime: PAYMENTS_SESSION_TTL_SECONDS, 15 minutes.
        expiresAt: new Date(clock.now().getTime() + 900_000).toISOString(),
      });
      expect(s.breakdown).to.deep.equal([
        { ...voucherLine, status: 'PENDING' },
        { ...pointsLine, status: 'PENDING', referenceId: null, referenceType: null },
        { type: 'PAYMENT', amount: 100_000, status: 'PENDING', referenceId: null, referenceType: null, details: null },
      ]);
      // Read back: the same.
      expect(expectHubOk(await get(`paymentSessionId=${s.paymentSessionId}`))).to.deep.equal(s);
    });

    it('a resend under the same X-Request-ID answers the same; another request under it is 4093', async () => {
      const requestId = randomUUID();
      const body = sessionBody('S-RESEND');
      const first = expectHubOk(await create(body, hubHeaders(key(), ts(), requestId)));
      expect(expectHubOk(await create(body, hubHeaders(key(), ts(), requestId)))).to.deep.equal(first);
      expectHubError(await create(sessionBody('S-RESEND-2'), hubHeaders(key(), ts(), requestId)), 409, 4093);
    });

    it('the orderId+referenceId pair once per merchant (409 4091); another merchant may use it', async () => {
      await created('S-DUP');
      expectHubError(await create(sessionBody('S-DUP')), 409, 4091);
      expectHubOk(await create(sessionBody('S-DUP', {}, other.secretKey), hubHeaders(key('T1', other), ts())));
    });

    it('a session the vouchers and points cover is COMPLETED at once, without a PAYMENT line', async () => {
      const s = await created('S-FREE', { originalAmount: 50_000 });
      expect(s).to.deep.include({ status: 'COMPLETED', amount: 0 });
      expect(s.breakdown.map((l) => [l.type, l.status])).to.deep.equal([
        ['VOUCHER', 'SUCCESS'],
        ['VPOINT', 'SUCCESS'],
      ]);
      expect(s).not.to.have.property('transactionId');
      // Its one final IPN, named by the session (no transaction), with the breakdown.
      await eventually(async () => {
        const rows = await ipnRows(s.paymentSessionId);
        expect(rows.map((r) => [r.event_type, r.transaction_type, r.ipn_status])).to.deep.equal([
          ['PaymentSessionCompleted', 'PAYMENT', 'COMPLETED'],
        ]);
        expect(rows[0].payload as Record<string, unknown>).to.deep.include({ amount: 0, paymentMethod: 'VPOINT' });
      });
    });

    it('refuses bad input with 4001 naming the field, records nothing', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ originalAmount: 49_999 }, /breakdown/],
        [{ breakdown: [{ type: 'PAYMENT', amount: 1000, details: null }] }, /VOUCHER or VPOINT/],
        [{ breakdown: [{ ...voucherLine, details: { voucherCode: 'V' } }] }, /breakdown\[0\]\.details/],
        [{ breakdown: [{ ...pointsLine, details: { points: 20 } }] }, /breakdown\[0\]\.details/],
        [{ breakdown: [{ ...voucherLine, referenceType: null }] }, /referenceType/],
        [{ breakdown: [{ ...voucherLine, amount: 0 }] }, /amount/],
        [{ expiresAt: '2026-03-01T10:10:00Z', ttlSeconds: 600 }, /ttlSeconds/],
        [{ expiresAt: '2026-03-01T09:59:00Z' }, /expiresAt/],
        [{ ttlSeconds: 10 }, /ttlSeconds/],
        [{ createdAt: '1772359200000' }, /createdAt/],
        [{ currency: 'vnd' }, /currency/],
        [{ orderId: 'A|B' }, /orderId/],
      ];
      for (const [extra, field] of cases) {
        const message = expectHubError(await create(sessionBody('S-BAD', extra)), 400, 4001);
        expect(message, JSON.stringify(extra)).to.match(field);
      }
      const { referenceId: _r, ...missing } = sessionBody('S-BAD');
      expect(expectHubError(await create(missing), 400, 4001)).to.match(/referenceId/);
      expectHubError(await get('orderId=S-BAD&referenceId=REF-S-BAD'), 404, 4404);
    });

    it('the key, the hash and the timestamp: 4101, 4100, 4102, 4103', async () => {
      expectHubError(await create(sessionBody('S-AUTH'), hubHeaders(undefined, ts())), 401, 4101);
      expectHubError(await create(sessionBody('S-AUTH'), hubHeaders('phk_unknown', ts())), 401, 4100);
      // Signed over the amount to pay instead of originalAmount: not the string.
      expectHubError(await create({ ...sessionBody('S-AUTH'), originalAmount: 150_001 }), 401, 4102);
      expectHubError(await create(sessionBody('S-AUTH'), hubHeaders(key(), String(Number(ts()) - 301))), 401, 4103);
    });
  });

  describe('get (GET /payment-sessions)', () => {
    it('by paymentSessionId or by orderId and referenceId', async () => {
      const s = await created('S-GET');
      expect(expectHubOk(await get('orderId=S-GET&referenceId=REF-S-GET'))).to.deep.equal(s);
      expect(expectHubOk(await get(`paymentSessionId=${s.paymentSessionId.toUpperCase()}`))).to.deep.equal(s);
    });

    it('400 4001 without a UUID or the pair; 401 4101 / 4100; 404 4404 unknown', async () => {
      for (const q of ['', 'orderId=S-GET', 'referenceId=REF-S-GET', 'paymentSessionId=nope'])
        expectHubError(await get(q), 400, 4001);
      expectHubError(await get('orderId=S-GET&referenceId=REF-S-GET', null), 401, 4101);
      expectHubError(await get('orderId=S-GET&referenceId=REF-S-GET', 'phk_nope'), 401, 4100);
      expectHubError(await get(`paymentSessionId=${randomUUID()}`), 404, 4404);
      expectHubError(await get('orderId=S-GET&referenceId=OTHER'), 404, 4404);
    });

    it("another terminal's or merchant's key finds nothing (404 4404, existence not revealed)", async () => {
      const s = await created('S-OWN');
      expectHubError(await get(`paymentSessionId=${s.paymentSessionId}`, key('T2')), 404, 4404);
      expectHubError(await get(`paymentSessionId=${s.paymentSessionId}`, key('T1', other)), 404, 4404);
      expectHubError(await get('orderId=S-OWN&referenceId=REF-S-OWN', key('T1', other)), 404, 4404);
    });
  });

  describe('cancel (PUT /payment-sessions/cancel)', () => {
    it('a PENDING session ends CANCELLED with its lines; again: 400 4018; one final CANCEL IPN', async () => {
      const s = await created('S-CXL');
      const done = expectHubOk(await cancel({ paymentSessionId: s.paymentSessionId })) as Session;
      expect(done.status).to.equal('CANCELLED');
      expect(done.breakdown.every((l) => l.status === 'CANCELLED')).to.equal(true);
      expectHubError(await cancel({ orderId: 'S-CXL', referenceId: 'REF-S-CXL' }), 400, 4018);
      await eventually(async () =>
        expect((await ipnRows(s.paymentSessionId)).map((r) => [r.transaction_type, r.ipn_status])).to.deep.equal([
          ['CANCEL', 'CANCELLED'],
        ]),
      );
    });

    it('404 4404 for an unknown or foreign session; 4102 for a bad hash; 4001 without a reference', async () => {
      expectHubError(await cancel({ paymentSessionId: randomUUID() }), 404, 4404);
      const s = await created('S-CXL-2');
      expectHubError(await cancel({ paymentSessionId: s.paymentSessionId }, key('T2')), 404, 4404);
      const timestamp = ts();
      const headers = hubHeaders(key(), timestamp);
      const bad = { paymentSessionId: s.paymentSessionId, secureHash: sign(m.secretKey, `${s.paymentSessionId}|1`) };
      expectHubError(await hub(app.baseUrl, 'PUT', '/payment-sessions/cancel', headers, bad), 401, 4102);
      const none: Record<string, string> = { secureHash: sign(m.secretKey, `x|${timestamp}`) };
      expectHubError(
        await hub(app.baseUrl, 'PUT', '/payment-sessions/cancel', hubHeaders(key(), ts()), none),
        400,
        4001,
      );
      expect(
        ((await app.container.services.payments.sessions.load(s.paymentSessionId)) as unknown as Session).status,
      ).to.equal('PENDING');
    });

    it('two cancels at once: one answers 200, the other 4018', async () => {
      const s = await created('S-CXL-RACE');
      const answers = await Promise.all([1, 2, 3].map(() => cancel({ paymentSessionId: s.paymentSessionId })));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 400, 400]);
      const events = await app.container.store.readStream(`paymentSession-${s.paymentSessionId}`);
      expect(events.filter((e) => e.type === 'PaymentSessionCancelled')).to.have.length(1);
    });
  });

  describe('paying the session (init payment with paymentSessionId)', () => {
    const { submit } = sandboxPages(() => app.baseUrl);

    it('through the sandbox wallet: COMPLETED, every line SUCCESS, transactionId set, one IPN with the breakdown', async () => {
      const s = await created('S-PAY');
      // skipHolding: the wallet captures at once (signed, as init's string says).
      const body = initBody(m.secretKey, s.orderId, {
        amount: s.amount,
        paymentSessionId: s.paymentSessionId,
        skipHolding: true,
      });
      body.secureHash = sign(m.secretKey, `S-PAY|REF-S-PAY|100000|VND|${createdAt}|true`);
      const init = expectHubOk(await hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(), ts()), body)) as {
        transaction: { id: string };
        paymentInfo: { redirectUrl: string };
      };
      const transactionId = init.transaction.id;
      const processing = expectHubOk(await get(`paymentSessionId=${s.paymentSessionId}`)) as Session;
      expect(processing.status).to.equal('PROCESSING');
      expect(processing.breakdown.at(-1)).to.deep.include({
        type: 'PAYMENT',
        referenceId: transactionId,
        referenceType: 'TRANSACTION',
        status: 'PENDING',
      });
      // PROCESSING: neither cancelled nor payable twice.
      expectHubError(await cancel({ paymentSessionId: s.paymentSessionId }), 400, 4018);

      await submit(init.paymentInfo.redirectUrl, { action: 'approve' });
      const done = await eventually(async () => {
        const now = expectHubOk(await get(`paymentSessionId=${s.paymentSessionId}`)) as Session;
        expect(now.status).to.equal('COMPLETED');
        return now;
      });
      expect(done.transactionId).to.equal(transactionId);
      expect(done.breakdown.map((l) => [l.type, l.status])).to.deep.equal([
        ['VOUCHER', 'SUCCESS'],
        ['VPOINT', 'SUCCESS'],
        ['PAYMENT', 'SUCCESS'],
      ]);
      // One final IPN for the session, with its breakdown; the transaction sends no COMPLETED of its own.
      await eventually(async () => {
        const rows = await ipnRows(transactionId);
        expect(rows.map((r) => [r.event_type, r.transaction_type, r.ipn_status])).to.deep.equal([
          ['PaymentSessionCompleted', 'PAYMENT', 'COMPLETED'],
        ]);
        const payload = rows[0].payload as Record<string, unknown> as Record<string, unknown>;
        expect(payload).to.deep.include({
          orderId: 'S-PAY',
          transactionId,
          amount: 100_000,
          transactionType: 'PAYMENT',
          paymentMethod: 'E_WALLET',
          paymentProvider: 'SANDBOX_WALLET',
        });
        expect(payload.breakdown).to.deep.equal(done.breakdown);
      });
      // A redelivery of the transaction's outcome (the process manager hears it again) changes nothing.
      const events = await app.container.store.readStream(`paymentSession-${s.paymentSessionId}`);
      expect(events.map((e) => e.type)).to.deep.equal([
        'PaymentSessionCreated',
        'PaymentSessionProcessing',
        'PaymentSessionCompleted',
      ]);
    });

    it('a declined payment ends the session CANCELLED (PAYMENT FAILED): one final FAILED IPN', async () => {
      const s = await created('S-DECL');
      const init = expectHubOk(await initFor(s)) as {
        transaction: { id: string };
        paymentInfo: { redirectUrl: string };
      };
      await submit(init.paymentInfo.redirectUrl, { action: 'decline' });
      const done = await eventually(async () => {
        const now = expectHubOk(await get(`paymentSessionId=${s.paymentSessionId}`)) as Session;
        expect(now.status).to.equal('CANCELLED');
        return now;
      });
      expect(done.transactionId).to.equal(init.transaction.id);
      expect(done.breakdown.map((l) => l.status)).to.deep.equal(['CANCELLED', 'CANCELLED', 'FAILED']);
      await eventually(async () =>
        expect(
          (await ipnRows(init.transaction.id)).map((r) => [r.event_type, r.transaction_type, r.ipn_status]),
        ).to.deep.equal([['PaymentSessionCancelled', 'PAYMENT', 'FAILED']]),
      );
    });

    it('refuses an init that does not pay the session exactly (4001 naming paymentSessionId), records nothing', async () => {
      const s = await created('S-MISMATCH');
      const cases: Record<string, unknown>[] = [
        { amount: 150_000 },
        { referenceId: 'REF-OTHER' },
        { paymentSessionId: randomUUID() },
      ];
      for (const extra of cases)
        expect(expectHubError(await initFor(s, extra), 400, 4001), JSON.stringify(extra)).to.match(/paymentSessionId/);
      const other = await created('S-OTHER-ORDER');
      expectHubError(await initFor({ ...other, orderId: 'S-MISMATCH', referenceId: 'REF-S-MISMATCH' }), 400, 4001);
      expect(
        ((await app.container.services.payments.sessions.load(s.paymentSessionId)) as unknown as Session).status,
      ).to.equal('PENDING');
      // Then the right one goes through; its resend under the same X-Request-ID answers the same, and another init
      // under that id is 4093 (the used key answers before the session, which moved on, would refuse).
      const requestId = randomUUID();
      const body = initBody(m.secretKey, s.orderId, { amount: s.amount, paymentSessionId: s.paymentSessionId });
      const send = (b: Record<string, unknown>) =>
        hub(app.baseUrl, 'POST', '/transactions', hubHeaders(key(), ts(), requestId), b);
      const first = expectHubOk(await send(body));
      expect(expectHubOk(await send(body))).to.deep.equal(first);
      expectHubError(await send({ ...body, description: 'another' }), 409, 4093);
      expect((await app.container.store.readStream(`paymentSession-${s.paymentSessionId}`)).length).to.equal(2);
    });

    it('a held payment: HOLDING notified by the transaction; its confirm and cancel racing give one session outcome', async () => {
      for (let i = 0; i < 3; i++) {
        const s = await created(`S-HOLD-${i}`);
        // The wallet holds (its autoCapture is off): the backend confirms or cancels the hold.
        const init = expectHubOk(await initFor(s)) as {
          transaction: { id: string };
          paymentInfo: { redirectUrl: string };
        };
        const id = init.transaction.id;
        await submit(init.paymentInfo.redirectUrl, { action: 'approve' });
        const signed = (timestamp: string) => ({
          transactionId: id,
          secureHash: sign(m.secretKey, `${id}|${timestamp}`),
        });
        const put = (path: string) => {
          const timestamp = ts();
          return hub(app.baseUrl, 'PUT', path, hubHeaders(key(), timestamp), signed(timestamp));
        };
        const [confirmed, cancelled] = await Promise.all([put('/transactions/confirm'), put('/transactions/cancel')]);
        expect(
          [confirmed.status, cancelled.status].filter((st) => st === 200),
          confirmed.text + cancelled.text,
        ).to.have.length(1);
        const end = confirmed.status === 200 ? 'COMPLETED' : 'CANCELLED';
        await eventually(async () => {
          const now = expectHubOk(await get(`paymentSessionId=${s.paymentSessionId}`)) as Session;
          expect(now.status).to.equal(end);
        });
        // The transaction's own HOLDING, then the session's one final notification.
        await eventually(async () =>
          expect((await ipnRows(id)).map((r) => [r.event_type, r.ipn_status])).to.deep.equal([
            ['TransactionHeld', 'HOLDING'],
            end === 'COMPLETED' ? ['PaymentSessionCompleted', 'COMPLETED'] : ['PaymentSessionCancelled', 'FAILED'],
          ]),
        );
        const sessionEvents = await app.container.store.readStream(`paymentSession-${s.paymentSessionId}`);
        expect(sessionEvents.map((e) => e.type).at(-1)).to.equal(
          end === 'COMPLETED' ? 'PaymentSessionCompleted' : 'PaymentSessionCancelled',
        );
        expect(sessionEvents).to.have.length(3);
      }
    });

    it('an init and a cancel racing on one session: exactly one wins', async () => {
      for (let i = 0; i < 4; i++) {
        const s = await created(`S-RACE-${i}`);
        const [init, cxl] = await Promise.all([initFor(s), cancel({ paymentSessionId: s.paymentSessionId })]);
        const winners = [init.status, cxl.status].filter((st) => st === 200);
        expect(winners, `${init.text} ${cxl.text}`).to.have.length(1);
        const session = (await app.container.services.payments.sessions.load(s.paymentSessionId)) as unknown as Session;
        expect(session.status).to.equal(init.status === 200 ? 'PROCESSING' : 'CANCELLED');
        if (init.status !== 200) expect(init.status).to.equal(400);
        else expect(cxl.status).to.equal(400);
      }
    });
  });

  describe('expiry (stored timer, injected clock)', () => {
    it('a PENDING session is EXPIRED at expiresAt, not before; one final FAILED IPN', async () => {
      const s = await created('S-EXP', { ttlSeconds: 60 });
      const paying = await created('S-EXP-PAYING', { ttlSeconds: 60 });
      expectHubOk(await initFor(paying));
      clock.advance(59_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(
        ((await app.container.services.payments.sessions.load(s.paymentSessionId)) as unknown as Session).status,
      ).to.equal('PENDING');
      clock.advance(1000);
      await eventually(async () => {
        const now = (await app.container.services.payments.sessions.load(s.paymentSessionId)) as unknown as Session;
        expect(now.status).to.equal('EXPIRED');
        expect(now.breakdown.every((l) => l.status === 'CANCELLED')).to.equal(true);
      }, 10_000);
      const last = (await app.container.store.readStream(`paymentSession-${s.paymentSessionId}`)).at(-1)!;
      expect(last.metadata.actor).to.deep.equal({ process: 'timer:payments-session-expiry' });
      // A session being paid does not expire.
      expect(
        ((await app.container.services.payments.sessions.load(paying.paymentSessionId)) as unknown as Session).status,
      ).to.equal('PROCESSING');
      await eventually(async () =>
        expect(
          (await ipnRows(s.paymentSessionId)).map((r) => [
            r.transaction_type,
            r.ipn_status,
            (r.payload as { errorCode: string }).errorCode,
          ]),
        ).to.deep.equal([['PAYMENT', 'FAILED', 'SESSION_EXPIRED']]),
      );
    });
  });
});
