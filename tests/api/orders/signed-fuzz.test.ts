import { expect } from 'chai';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../../support/app.js';
import { createdBody, merchantWithKey, sendWebhook, sign, type MerchantKeys } from './support.js';

const runs = Number(process.env.FUZZ_RUNS ?? 120);

/** Any text a sender could put in a field: any unicode, quotes and backslashes, empty, long. */
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('', ' ', '"', '\\', '\\"}', '{"', '$&', 'x'.repeat(300)),
);
const anyNumber = fc.oneof(
  fc.double({ noNaN: true }),
  fc.integer(),
  fc.constantFrom(0, -0, -1, 0.5, 1e21, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER),
);
const anyValue = fc.oneof(anyText, anyNumber, fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));
/** Mostly what the rules accept, so that the property reaches the aggregate, and now and then anything. */
const mostlyText = fc.oneof({ arbitrary: anyText, weight: 4 }, { arbitrary: anyValue, weight: 1 });
const mostlyValidAmount = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 1e12 }), weight: 3 },
  { arbitrary: fc.double({ min: 0, max: 1e15, noNaN: true }), weight: 1 },
  { arbitrary: anyNumber, weight: 1 },
);
/** An extension map: any JSON object, with keys and strings of any shape. */
const anyMap = fc.dictionary(anyText, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });

/**
 * Signed webhooks whose fields hold anything (docs/orders-fields.md, "Field rules"): correctly signed, so they pass the
 * credentials and reach the field rules, the hash and the aggregate. Every answer is a 200 or a 4xx in the order
 * view's envelope, never a 5xx or a stack trace, and an accepted one stored its maps exactly as sent.
 */
describe('Order view: signed webhooks with fields of any value (property test over HTTP)', function () {
  this.timeout(300_000);
  let app: TestApp;
  let keys: MerchantKeys;
  before(async () => {
    app = await startTestApp({ background: false });
    keys = await merchantWithKey(app, 'SFUZZ');
  });
  after(() => app?.stop());

  it('order.created with any field set to any value', async () => {
    const fields = [
      'order_name',
      'status',
      'business_unit_id',
      'seller_merchant_id',
      'description',
      'image_url',
      'order_type',
    ];
    let n = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fields),
        mostlyText,
        anyMap,
        mostlyValidAmount,
        async (field, value, metadata, total) => {
          const body = createdBody(
            `sf-${n++}`,
            {},
            { [field]: value, amounts: { currency: 'VND', total_amount: total, grand_total: 0 } },
          );
          const metadataText = JSON.stringify(metadata, null, n % 2 ? 1 : 0);
          const signed = { secure_hash: sign(keys.secretKey, 'created', body), ...body };
          const text = JSON.stringify(signed).replace('"order":{', () => `"order":{"metadata":${metadataText},`);
          const res = await sendWebhook(app, 'created', body, { keys, rawBody: text });
          const where = `${field}=${JSON.stringify(value)} total=${total} metadata=${metadataText} → ${res.status} ${res.text}`;
          // Correctly signed: never 401, whatever the values (a 401 is a string to sign the two sides build apart).
          expect(res.status, where).to.be.oneOf([200, 400, 409]);
          expect(res.body, where).to.have.all.keys('code', 'message', 'data');
          expect(res.text, where).not.to.match(/\n\s+at |node_modules|\.ts:\d+/);
          if (res.status === 200) {
            accepted++;
            const [created] = await app.container.store.readStream(`order-SFUZZ-${body.order.order_id as string}`);
            expect((created!.data as { order: { metadata: string } }).order.metadata, where).to.equal(metadataText);
          }
        },
      ),
      { numRuns: runs },
    );
    // Not vacuous: the generated bodies reach the aggregate, not only the field rules.
    expect(accepted).to.be.above(runs / 10);
  });

  it('order.updated with amounts of any value', async () => {
    // The order exists, so that accepted updates apply (rather than wait for a created, up to a limit).
    const created = await sendWebhook(app, 'created', createdBody('sf-upd', { event_timestamp: Date.now() - 60_000 }), {
      keys,
    });
    expect(created.status, created.text).to.equal(200);
    const statuses: number[] = [];
    await fc.assert(
      fc.asyncProperty(mostlyValidAmount, mostlyValidAmount, mostlyText, async (grand, total, status) => {
        const body = {
          event_timestamp: Date.now() - 1000,
          order: { order_id: 'sf-upd', status, amounts: { grand_total: grand, total_amount: total } },
        };
        const res = await sendWebhook(app, 'updated', body as never, { keys });
        const where = `${JSON.stringify(body)} → ${res.status} ${res.text}`;
        expect(res.status, where).to.be.oneOf([200, 400]);
        statuses.push(res.status);
        expect(res.body, where).to.have.all.keys('code', 'message', 'data');
      }),
      { numRuns: runs },
    );
    expect(statuses).to.include(200).and.to.include(400);
  });
});
