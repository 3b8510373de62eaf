/**
 * Every walk-through of README.md and docs/ that runs against `npm start`, run as written (bash, curl, jq, openssl)
 * against one main.ts with the demo seed, started as a script would: it waits for /ready, then reads the credentials
 * (tests/support/walkthroughs.ts). In the README's order, which is a reader's: the purchase flow first, so that its
 * voucher ids are a fresh start's. Each asserts the answers' codes (not their messages) and that no step was refused
 * but the one the walk-through shows refused.
 */
import { expect } from 'chai';
import { mainSuite } from '../support/main-suite.js';
import {
  answers,
  demoCredentialsWritten,
  requireWalkthroughTools,
  runWalkthrough,
  shBlocks,
  startDemo,
  type DemoService,
} from '../support/walkthroughs.js';

type Answer = Record<string, unknown> & { data?: Record<string, unknown> };
const data = (answer: Answer | undefined) => answer!.data as Record<string, unknown> & Record<string, never>;

describe('the walk-throughs of README.md and docs/, as written, against npm start (bash, curl, main.ts, PostgreSQL)', function () {
  this.timeout(180_000);
  requireWalkthroughTools();
  const suite = mainSuite('walkthroughs');
  const readiness: { status: number; body: unknown; credentials: ReturnType<typeof demoCredentialsWritten> }[] = [];
  let demo: DemoService;

  before(async () => {
    demo = await startDemo(suite, {
      onReady: (answer) => readiness.push({ ...answer, credentials: demoCredentialsWritten(suite.dataDir) }),
    });
  });

  it('/ready answers 503 NOT_READY while the demo seed writes its credentials, 200 READY only once they all are', () => {
    const early = readiness.slice(0, -1);
    // The service listens (and logs "service started") before it seeds: a script polling /ready sees the seed run.
    expect(early, 'the answers before READY').to.have.length.above(0);
    for (const answer of early) {
      expect(answer.status).to.equal(503);
      expect(answer.body).to.deep.include({ status: 'NOT_READY' });
      expect((answer.body as { checks: Record<string, boolean> }).checks).to.include({ demoSeed: false });
    }
    expect(early.map((a) => a.credentials)).to.include.oneOf(['absent', 'partial']);
    const ready = readiness.at(-1)!;
    expect(ready.body).to.deep.include({ status: 'READY' });
    expect((ready.body as { checks: Record<string, boolean> }).checks).to.include({ database: true, demoSeed: true });
    expect(ready.credentials).to.equal('complete');
  });

  it('README "The purchase flow with curl": browse, reserve, read, commit; the release after it is refused', async () => {
    const block = shBlocks('README.md', '## The purchase flow with curl').join('\n');
    const stdout = await runWalkthrough(demo, block);
    const [vouchers, search, carousel, reserve, status, commit, release, ...rest] = answers(stdout) as Answer[];
    expect(rest, stdout).to.deep.equal([]);
    for (const answer of [vouchers, search, carousel, reserve, status, commit])
      expect(answer, stdout).to.include({ code: 'SUCCESS' });
    expect(data(vouchers).content).to.have.length.above(0);
    expect(data(search).content, 'the Vietnamese search without diacritics').to.have.length.above(0);
    expect(Object.keys(data(carousel))).to.have.length.above(0);
    // The ids the README shows are a fresh start's.
    const [, shownId, shownCode] = /"issuedPromotionId":(\d+),"voucherCode":"(\d{4}-\d{4})-…"/.exec(block)!;
    const items = data(reserve).items as { vouchers: { issuedPromotionId: number; voucherCode: string }[] }[];
    expect(items[0]!.vouchers[0]!.issuedPromotionId).to.equal(Number(shownId));
    expect(items[0]!.vouchers[0]!.voucherCode.startsWith(`${shownCode}-`)).to.equal(true);
    expect(data(status)).to.include({ status: 'RESERVED', reservationKey: data(reserve).reservationKey });
    expect(data(commit)).to.include({ reservationKey: data(reserve).reservationKey });
    // The README's step 9: a committed reservation is not released.
    expect(release).to.include({ code: 'SHOP-PUR-007' });
  });

  it('README "The checkout with curl": applicable, preview, reserve, read, confirm, refund', async () => {
    const stdout = await runWalkthrough(demo, shBlocks('README.md', '## The checkout with curl').join('\n'));
    const [applicable, preview, reserve, reservation, confirm, refund, ...rest] = answers(stdout) as Answer[];
    expect(rest, stdout).to.deep.equal([]);
    for (const answer of [applicable, preview, reserve, reservation, confirm, refund])
      expect(answer, stdout).to.include({ code: '0' });
    expect(data(preview)).to.include({ total_discount: 15000, original_total: 150000, final_amount: 135000 });
    expect(data(reservation)).to.include({ reservation_key: data(reserve).reservation_key, status: 'RESERVED' });
    const status = (answer: Answer | undefined) => (data(answer).promotions as { status: string }[])[0]!.status;
    expect(status(confirm)).to.equal('USED');
    expect(status(refund)).to.equal('ISSUED');
  });

  it('README "Login flow": silent login, consent, user info, then an upload and its download', async () => {
    const stdout = await runWalkthrough(demo, shBlocks('README.md', '## Login flow').join('\n'));
    const [silent, consent, userinfo, upload, ...rest] = answers(stdout) as Answer[];
    expect(rest, stdout).to.deep.equal([]);
    expect(silent, stdout).to.include({ token_type: 'Bearer', scope: 'auth', user_id: 'demo-user-3' });
    expect(consent, stdout).to.include({ code: 'SUCCESS' });
    expect(userinfo, stdout).to.include({ code: 0 });
    expect(data(userinfo)).to.include({ user_id: 'demo-user-3', phone_number: '0987654321' });
    expect(upload, stdout).to.include({ code: 0 });
    expect(data(upload)).to.include({ type: 'image/png', kind: 'image' });
    expect(stdout).to.include('downloaded: the same bytes');
  });

  it('README "Order view": signs and sends an order.created with openssl, reads it in the portal and as its customer', async () => {
    const stdout = await runWalkthrough(demo, shBlocks('README.md', '## Order view').join('\n'), {
      sleep:
        'until curl -s "localhost:3000/operator/v1/orders?merchant_id=DEMO_AUTO&size=1" ' +
        '-H "Authorization: Bearer $OPS" | grep -q "$ID"; do sleep 0.2; done',
    });
    const [created, portal, daily, mine, detail, ...rest] = answers(stdout) as Answer[];
    expect(rest, stdout).to.deep.equal([]);
    expect(created, 'the webhook').to.include({ code: 0 });
    const orderId = data(created).order_id as string;
    expect(data(created)).to.include({ event: 'order.created', outcome: 'CREATED' });
    expect(orderId).to.match(/^README-\d+$/);
    const ids = (answer: Answer | undefined) => (data(answer).orders as { order_id: string }[]).map((o) => o.order_id);
    expect(portal, 'the portal').to.include({ code: 'SUCCESS' });
    expect(ids(portal)).to.include(orderId);
    expect(daily, 'the daily statistics').to.include({ code: 'SUCCESS' });
    expect(data(daily).days).to.have.length.above(0);
    expect(mine, "the customer's orders").to.include({ code: 0 });
    expect(ids(mine)).to.include(orderId);
    expect(detail, 'the order').to.include({ code: 0 });
    expect(data(detail)).to.include({ order_id: orderId, merchant_id: 'DEMO_AUTO', customer_id: 'demo-user-1' });
    // The metadata exactly as sent, as the README says.
    expect(stdout).to.include('{"station": "HN-07",  "kWh": 42.50}');
  });

  it('README "Payments": a card paid on the sandbox page, a wallet hold confirmed, a card saved and removed, a refund', async () => {
    const stdout = await runWalkthrough(demo, shBlocks('README.md', '## Payments').join('\n'));
    const [methods, card, cardRead, wallet, confirm, save, saved, removed, ipns, snapshot, refund, ...rest] = answers(
      stdout,
    ) as Answer[];
    expect(rest, stdout).to.deep.equal([]);
    expect(methods!.items, stdout).to.have.length.above(0);
    for (const answer of [card, cardRead, wallet, confirm, save, saved, removed, snapshot, refund])
      expect(answer, stdout).to.include({ code: 0 });
    expect(ipns).to.include({ code: 'SUCCESS' });
    const transaction = (answer: Answer | undefined) => data(answer).transaction as { id: string; status: string };
    expect(transaction(card).status).to.equal('PROCESSING');
    expect((data(cardRead).items as object[])[0]).to.include({ id: transaction(card).id, status: 'COMPLETED' });
    expect(transaction(wallet).status).to.equal('PROCESSING');
    expect((data(saved).items as { cardNo: string }[]).map((m) => m.cardNo)).to.deep.equal(['411111******1111']);
    expect(data(refund)).to.include({ status: 'PENDING', remainingRefundableAmount: 100000 });
    // Each page's last form went back to the init's returnURL: the card's, the wallet's and the saved card's.
    const returned = stdout.split('\n').filter((line) => line === `303 http://${demo.address}/health`);
    expect(returned, stdout).to.have.length(3);
  });

  it('docs/payments-sessions.md "Try it": a session paid by card on the sandbox page, then COMPLETED', async () => {
    const stdout = await runWalkthrough(demo, shBlocks('docs/payments-sessions.md', '## Try it (`npm start`)')[0]!, {
      // Its shell is the README's "Payments" one (SECRET, H, page).
      prelude: shBlocks('README.md', '## Payments')[0]!,
      sleep:
        'until curl -s "localhost:3000/api/payments/v1/payment-sessions?paymentSessionId=$PS" "${H[@]}" ' +
        '| grep -q \'"status":"COMPLETED"\'; do sleep 0.2; done',
    });
    const [session, init, read, ...rest] = answers(stdout) as Answer[];
    expect(rest, stdout).to.deep.equal([]);
    for (const answer of [session, init, read]) expect(answer, stdout).to.include({ code: 0 });
    expect(data(session)).to.include({ status: 'PENDING', amount: 100000 });
    expect(data(read)).to.include({ paymentSessionId: data(session).paymentSessionId, status: 'COMPLETED' });
  });

  it('docs/identity.md "The login flow, step by step": silent login, consent, user info', async () => {
    const stdout = await runWalkthrough(demo, shBlocks('docs/identity.md', '## The login flow, step by step')[0]!);
    const [silent, consent, userinfo, ...rest] = answers(stdout) as Answer[];
    expect(rest, stdout).to.deep.equal([]);
    expect(silent, stdout).to.include({ token_type: 'Bearer', scope: 'auth', user_id: 'demo-user-3' });
    expect(consent, stdout).to.include({ code: 'SUCCESS' });
    expect(userinfo, stdout).to.include({ code: 0 });
    expect(data(userinfo)).to.include({ user_id: 'demo-user-3', email: 'chau.le@example.vn' });
  });

  it('docs/gateway.md "Operator API": a party registered, then its credentials issued', async () => {
    const stdout = await runWalkthrough(demo, shBlocks('docs/gateway.md', '## Operator API')[0]!);
    const [party, pair, ...rest] = answers(stdout) as Answer[];
    expect(rest, stdout).to.deep.equal([]);
    expect(party, stdout).to.include({ code: 'SUCCESS' });
    expect(data(party)).to.include({ partyId: 'acme-pay' });
    expect(pair, stdout).to.include({ code: 'SUCCESS' });
    expect(data(pair).environments).to.deep.equal(['uat']);
  });
});
