import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { hmacSha256Hex } from '../../../application/shared/signatures.js';
import { useHubScene, type InitData } from './hub-scene.js';
import { expectHubError, expectHubOk, hub, hubHeaders, sign, walletProviderId } from './support.js';

/** Lookup, cancel and confirm over HTTP on PostgreSQL, with the race (docs/payments.md, "States"). */
describe('Payment hub lookup, cancel and confirm (HTTP, PostgreSQL)', () => {
  const s = useHubScene();
  const { clock, key, ts, init, held, signedById } = s;

  describe('lookup (GET /transactions)', () => {
    it('finds by transactionId and by orderId+referenceId, every Transaction field', async () => {
      const id = await held('ORD-G');
      const byId = expectHubOk(
        await hub(s.app.baseUrl, 'GET', `/transactions?transactionId=${id}`, hubHeaders(key(s.m1), ts())),
      ) as {
        items: Record<string, unknown>[];
      };
      expect(byId.items).to.have.length(1);
      expect(byId.items[0]).to.deep.include({
        id,
        orderId: 'ORD-G',
        referenceId: 'REF-ORD-G',
        status: 'HOLDING',
        merchant: { code: 'shop-one', name: 'Merchant shop-one' },
        providerTransactionId: `SBX-${id}`,
        providerInvoiceId: null,
        provider: { id: walletProviderId, name: 'Sandbox wallet' },
        // A wallet names no instrument (the seed: null for wallets/QR), whatever the sandbox wallet reported.
        accountHolderName: null,
        cardNo: null,
        bankName: null,
        breakdown: null,
      });
      expect(Object.keys(byId.items[0]!)).to.have.members([
        'id',
        'referenceId',
        'orderId',
        'amount',
        'currency',
        'status',
        'description',
        'expiresAt',
        'createdAt',
        'updatedAt',
        'merchant',
        'providerTransactionId',
        'providerInvoiceId',
        'paymentMethod',
        'provider',
        'bankName',
        'accountHolderName',
        'cardNo',
        'breakdown',
        'orderInfo',
      ]);
      const byPair = expectHubOk(
        await hub(
          s.app.baseUrl,
          'GET',
          '/transactions?orderId=ORD-G&referenceId=REF-ORD-G',
          hubHeaders(key(s.m1), ts()),
        ),
      );
      expect(byPair).to.deep.equal(byId);
    });

    it('finds a transaction by a Vietnamese pair (percent-encoded UTF-8 in the query)', async () => {
      const id = await held('ĐH-Xe-điện-0009');
      const query = new URLSearchParams({ orderId: 'ĐH-Xe-điện-0009', referenceId: 'REF-ĐH-Xe-điện-0009' });
      const found = expectHubOk(
        await hub(s.app.baseUrl, 'GET', `/transactions?${query.toString()}`, hubHeaders(key(s.m1), ts())),
      ) as { items: Record<string, unknown>[] };
      expect(found.items.map((t) => [t.id, t.orderId, t.referenceId])).to.deep.equal([
        [id, 'ĐH-Xe-điện-0009', 'REF-ĐH-Xe-điện-0009'],
      ]);
    });

    it('answers 4661 without a usable lookup, 4301 for none, 4200 across terminals and merchants', async () => {
      const id = await held('ORD-O');
      for (const q of ['', '?orderId=ORD-O', '?transactionId=not-a-uuid'])
        expectHubError(await hub(s.app.baseUrl, 'GET', `/transactions${q}`, hubHeaders(key(s.m1), ts())), 400, 4661);
      expectHubError(
        await hub(s.app.baseUrl, 'GET', `/transactions?transactionId=${randomUUID()}`, hubHeaders(key(s.m1), ts())),
        404,
        4301,
      );
      expectHubError(
        await hub(s.app.baseUrl, 'GET', '/transactions?orderId=ORD-O&referenceId=wrong', hubHeaders(key(s.m1), ts())),
        404,
        4301,
      );
      expectHubError(
        await hub(s.app.baseUrl, 'GET', `/transactions?transactionId=${id}`, hubHeaders(key(s.m1, 'T2'), ts())),
        403,
        4200,
      );
      expectHubError(
        await hub(s.app.baseUrl, 'GET', `/transactions?transactionId=${id}`, hubHeaders(key(s.m2), ts())),
        403,
        4200,
      );
      expectHubError(
        await hub(s.app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(s.m2), ts()), signedById(s.m2, id)),
        403,
        4200,
      );
      // Another terminal of the same merchant (same secretKey) may neither confirm nor cancel.
      for (const path of ['/transactions/confirm', '/transactions/cancel'])
        expectHubError(
          await hub(s.app.baseUrl, 'PUT', path, hubHeaders(key(s.m1, 'T2'), ts()), signedById(s.m1, id)),
          403,
          4200,
        );
      expectHubError(
        await hub(s.app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(s.m2), ts()), signedById(s.m2, id)),
        403,
        4200,
      );
      // By the pair: another terminal of the merchant is refused; another merchant's pair names none of its own.
      const byPair = (m: typeof s.m1, t = 'T1') =>
        hub(s.app.baseUrl, 'GET', '/transactions?orderId=ORD-O&referenceId=REF-ORD-O', hubHeaders(key(m, t), ts()));
      expectHubError(await byPair(s.m1, 'T2'), 403, 4200);
      expectHubError(await byPair(s.m2), 404, 4301);
      expect((await s.app.container.services.payments.transactions.load(id)).status).to.equal('HOLDING');
    });
  });

  describe('cancel and confirm (PUT)', () => {
    it('confirms a held transaction (COMPLETED); a second confirm gets 4015 and a cancel 4014', async () => {
      const id = await held('ORD-CF');
      expectHubOk(
        await hub(s.app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(s.m1), ts()), signedById(s.m1, id)),
      );
      expect((await s.app.container.services.payments.transactions.load(id)).status).to.equal('COMPLETED');
      expectHubError(
        await hub(s.app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(s.m1), ts()), signedById(s.m1, id)),
        400,
        4015,
      );
      expectHubError(
        await hub(s.app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(s.m1), ts()), signedById(s.m1, id)),
        400,
        4014,
      );
    });

    it('cancels by the pair (signed orderId|referenceId|timestamp), with reason and requestedBy', async () => {
      const id = await held('ORD-CP');
      const body = {
        orderId: 'ORD-CP',
        referenceId: 'REF-ORD-CP',
        reason: 'customer changed mind',
        requestedBy: 'ops-1',
        secureHash: sign(s.m1.secretKey, `ORD-CP|REF-ORD-CP|${ts()}`),
      };
      expectHubOk(await hub(s.app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(s.m1), ts()), body));
      const events = await s.app.container.store.readStream(`transaction-${id}`);
      expect(events.at(-1)).to.deep.include({ type: 'TransactionCancelled' });
      expect(events.at(-1)!.data).to.deep.include({
        status: 'CANCELLED',
        reason: 'customer changed mind',
        requestedBy: 'ops-1',
      });
      expect(events.at(-1)!.metadata.actor).to.deep.equal({ merchantId: 'shop-one', terminalId: 'T1' });
    });

    it('confirm of a PROCESSING transaction is 4015; a transactionId wins over a wrong pair; bad bodies are 4001', async () => {
      const pending = (expectHubOk(await init(s.m1, 'ORD-P')) as InitData).transaction.id;
      const body = signedById(s.m1, pending, { orderId: 'nope', referenceId: 'nope' });
      expectHubError(
        await hub(s.app.baseUrl, 'PUT', '/transactions/confirm', hubHeaders(key(s.m1), ts()), body),
        400,
        4015,
      );
      expectHubOk(
        await hub(s.app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(s.m1), ts()), signedById(s.m1, pending)),
      );
      expectHubError(
        await hub(s.app.baseUrl, 'PUT', '/transactions/cancel', hubHeaders(key(s.m1), ts()), {
          secureHash: 'ab'.repeat(32),
        }),
        400,
        4001,
      );
      expectHubError(
        await hub(
          s.app.baseUrl,
          'PUT',
          '/transactions/confirm',
          hubHeaders(key(s.m1), ts()),
          signedById(s.m1, randomUUID()),
        ),
        404,
        4301,
      );
    });

    it('racing confirms, cancels and provider callbacks on one held transaction: exactly one outcome', async () => {
      const id = await held('ORD-RACE');
      const providerKey = hmacSha256Hex(s.app.secrets.PAYMENTS_SECRETS_KEY, 'sandbox-provider-key:SANDBOX_WALLET');
      const callback = (i: number) => {
        const body = JSON.stringify({
          callbackId: `race-${i}`,
          transactionId: id,
          providerTransactionId: `SBX-${id}`,
          result: 'DECLINED',
          errorCode: 'LATE',
          errorMessage: 'a late decline',
          payment: null,
          sentAt: clock.now().toISOString(),
        });
        return fetch(`${s.app.baseUrl}/payment-providers/v1/SANDBOX_WALLET/callbacks`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Provider-Signature': hmacSha256Hex(providerKey, body) },
          body,
        }).then(async (r) => ({ kind: 'callback', status: r.status, body: (await r.json()) as { code: unknown } }));
      };
      const merchant = (path: string) =>
        hub(s.app.baseUrl, 'PUT', path, hubHeaders(key(s.m1), ts()), signedById(s.m1, id)).then((r) => ({
          kind: path,
          status: r.status,
          body: r.body as { code: unknown },
        }));
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          i % 3 === 0
            ? merchant('/transactions/confirm')
            : i % 3 === 1
              ? merchant('/transactions/cancel')
              : callback(i),
        ),
      );
      const winners = results.filter((r) => r.status === 200);
      expect(winners, JSON.stringify(results)).to.have.length(1);
      for (const r of results) {
        if (r.status === 200) continue;
        if (r.kind === 'callback') expect(r).to.deep.include({ status: 409 });
        else expect([4014, 4015], JSON.stringify(r)).to.include(r.body.code);
      }
      const events = await s.app.container.store.readStream(`transaction-${id}`);
      const outcomes = events.filter((e) =>
        ['TransactionCompleted', 'TransactionCancelled', 'TransactionFailed'].includes(e.type),
      );
      expect(outcomes).to.have.length(1);
    });
  });
});
