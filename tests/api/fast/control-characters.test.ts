import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { controlCharacterField } from '../../../api/shared/control-characters.js';
import {
  apiSpecification,
  expectNoNewEvents,
  expectResponse,
  matching,
  satisfying,
  type ApiRequest,
} from '../../support/api-spec.js';
import { buildFastApp } from '../../support/fast-app.js';
import { fastShopMerchant, fastShopPool, fastShopScene } from '../../support/fast-shop-scene.js';
import { operatorHeaders, reserveBody, shopHeaders } from '../support.js';

/** A message matching `pattern`. */
const says = (pattern: RegExp) => satisfying((text) => typeof text === 'string' && pattern.test(text), String(pattern));

const now = '2026-03-01T10:00:00.000Z';
const given = apiSpecification({ app: buildFastApp, now });
const merchant = fastShopMerchant;
const shopScene = fastShopScene;
const pool = fastShopPool;

const reserve = (body: unknown): ApiRequest => ({
  method: 'POST',
  path: '/api/v1/vouchers/reserve',
  headers: shopHeaders(merchant, 'u-1', { 'X-Idempotency-Key': randomUUID() }),
  json: body,
});

/** Every refused kind: NUL, the other C0 controls but TAB/LF/CR, DEL, and lone surrogates of each half. */
const refusedCharacters = ['\u0000', '\u0001', '\u0008', '\u000b', '\u000c', '\u000e', '\u001b', '\u001f', '\u007f'];
const loneSurrogates = ['\ud800', '\udfff', 'a\ud83d', '\ude00b'];

describe('Control characters are refused at the edge (api/shared/control-characters.ts)', () => {
  describe('controlCharacterField', () => {
    it('names the first field holding a refused character, in the interface names', () => {
      for (const c of [...refusedCharacters, ...loneSurrogates]) {
        expect(controlCharacterField({ orderId: `A${c}B` }, ''), JSON.stringify(c)).to.equal('orderId');
        expect(controlCharacterField({ items: [{ ok: 'x' }, { note: c }] }, '')).to.equal('items[1].note');
        expect(controlCharacterField({ [`k${c}`]: 'v' }, '')).to.equal(`k${c}`);
        expect(controlCharacterField([['ok', `x${c}`]], 'body')).to.equal('body[0][1]');
        expect(controlCharacterField({ a: { b: [null, 1, { c }] } }, 'query')).to.equal('query.a.b[2].c');
      }
    });

    it('lets TAB, LF, CR, paired surrogates (an emoji) and Vietnamese text through', () => {
      const fine = { reason: 'dòng 1\r\n\tdòng 2', title: 'Ưu đãi 😀', n: 3, list: ['a', null, true] };
      expect(controlCharacterField(fine, '')).to.equal(undefined);
    });
  });

  describe('over HTTP, in the interface envelope, with nothing appended', () => {
    for (const [name, character] of [
      ['NUL', '\u0000'],
      ['ESC', '\u001b'],
      ['a lone surrogate', '\ud800'],
    ] as const) {
      it(`shop reserve: ${name} in orderId → 400 SHOP-REQ-001`, () =>
        given(...shopScene)
          .when(reserve(reserveBody([{ pool, quantity: 1 }], `ORD${character}1`)))
          .then(
            expectResponse(400, {
              body: { code: 'SHOP-REQ-001', message: says(/orderId contains a control character/), data: null },
            }),
            expectNoNewEvents(),
          ));
    }

    it('shop release: NUL in the reason → 400 SHOP-REQ-001 (it used to be stored and stall a projector)', () =>
      given(...shopScene)
        .when({
          method: 'POST',
          path: '/api/v1/vouchers/release',
          headers: shopHeaders(merchant, 'u-1'),
          json: { reservationKey: randomUUID(), reason: 'changed\u0000mind' },
        })
        .then(
          expectResponse(400, { body: { code: 'SHOP-REQ-001', message: says(/^reason contains/), data: null } }),
          expectNoNewEvents(),
        ));

    it('shop lookup: %00 in the path parameter → 400 SHOP-REQ-001', () =>
      given(...shopScene)
        .when({ method: 'GET', path: '/api/v1/vouchers/reservation/abc%00def', headers: shopHeaders(merchant, 'u-1') })
        .then(expectResponse(400, { body: matching({ code: 'SHOP-REQ-001', data: null }) })));

    it('operator API: a control character in a name or a key → 400 OPS-REQ-001', async () => {
      await given()
        .when({
          method: 'POST',
          path: '/operator/v1/voucher-categories',
          headers: operatorHeaders(),
          json: { name: 'Du\u0007lịch' },
        })
        .then(expectResponse(400, { body: matching({ code: 'OPS-REQ-001', message: says(/^name contains/) }) }));
      await given()
        .when({
          method: 'POST',
          path: '/operator/v1/voucher-categories',
          headers: operatorHeaders(),
          json: { name: 'Du lịch', 'x\u0000': 1 },
        })
        .then(expectResponse(400, { body: matching({ code: 'OPS-REQ-001' }) }), expectNoNewEvents());
    });
  });
});
