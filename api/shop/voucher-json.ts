import { BoundedCache } from '../../application/shared/bounded-cache.js';
import type { Page, ShopVoucherResponse } from '../../application/shop/index.js';

/**
 * The voucher answers (endpoints 1, 2 and 3) in the shop envelope, as UTF-8
 * JSON: the same bytes as JSON.stringify, made with a fraction of its work.
 *
 * A page of vouchers is 25–60 KB, mostly Vietnamese text that does not change
 * between answers (titles, descriptions, terms), and turning it into JSON and
 * then into UTF-8 on every answer was the largest cost of a listing. The
 * catalog's vouchers share their unchanging parts between answers as frozen
 * objects (infrastructure/shop/catalog-voucher-parts.ts): a frozen object cannot
 * change, so its UTF-8 JSON is made once and reused while the object lives.
 * What changes per answer (stock, countdown, the caller's purchases, the page)
 * is numbers and ASCII text, written straight into the answer's buffer.
 *
 * Every field of ShopVoucherResponse is written here, in its order: a field
 * added there must be added here (tests/unit/api/voucher-json.test.ts compares
 * against JSON.stringify).
 */

/** UTF-8 JSON of frozen objects, while they live. */
const frozenJson = new WeakMap<object, Buffer>();

/** UTF-8 JSON of campaign names, which every voucher of a campaign repeats. */
const nameJson = new BoundedCache<string, Buffer>(10_000);

const ascii = /^[\x20-\x7e]*$/;

/** An answer being written: ASCII text, gathered into strings, between UTF-8 pieces; copied into one buffer at the end. */
class JsonBytes {
  private readonly pieces: (string | Buffer)[] = [];
  private pending = '';
  private length = 0;

  /** `text` must be ASCII JSON (the callers write only numbers, literals and punctuation this way). */
  text(text: string): void {
    this.pending += text;
  }

  utf8(bytes: Buffer): void {
    if (this.pending) this.flush();
    this.pieces.push(bytes);
    this.length += bytes.length;
  }

  /** Any JSON value: ASCII JSON as text, anything else encoded. */
  value(value: unknown): void {
    const json = JSON.stringify(value) ?? 'null';
    if (ascii.test(json)) this.text(json);
    else this.utf8(Buffer.from(json, 'utf8'));
  }

  number(n: number | null): void {
    this.pending += n !== null && Number.isFinite(n) ? String(n) : 'null';
  }

  /** A value that may be frozen: then its JSON is made once. */
  shared(value: object | null): void {
    if (value === null || !Object.isFrozen(value)) return this.value(value);
    let json = frozenJson.get(value);
    if (!json) {
      json = Buffer.from(JSON.stringify(value), 'utf8');
      frozenJson.set(value, json);
    }
    this.utf8(json);
  }

  name(name: string): void {
    let json = nameJson.get(name);
    if (!json) {
      json = Buffer.from(JSON.stringify(name), 'utf8');
      nameJson.set(name, json);
    }
    this.utf8(json);
  }

  toBuffer(): Buffer {
    this.flush();
    const out = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (const piece of this.pieces)
      at += typeof piece === 'string' ? out.write(piece, at, 'latin1') : piece.copy(out, at);
    return out;
  }

  private flush(): void {
    this.pieces.push(this.pending);
    this.length += this.pending.length;
    this.pending = '';
  }
}

function voucher(out: JsonBytes, v: ShopVoucherResponse): void {
  const { campaign, pricing, inventory, userPurchaseUsage: usage } = v;
  out.text('{"id":');
  out.number(v.id);
  out.text(',"categoryId":');
  out.number(v.categoryId);
  out.text(',"miniAppIds":');
  out.shared(v.miniAppIds);
  out.text(',"campaign":{"id":');
  out.number(campaign.id);
  out.text(',"name":');
  out.name(campaign.name);
  out.text(',"tag":');
  out.value(campaign.tag);
  out.text(',"displayPriority":');
  out.number(campaign.displayPriority);
  out.text(',"validity":');
  out.value(campaign.validity);
  out.text(',"countdown":');
  out.value(campaign.countdown);
  out.text('},"display":');
  out.shared(v.display);
  out.text(',"pricing":{"faceValue":');
  out.number(pricing.faceValue);
  out.text(',"sellingPrice":');
  out.number(pricing.sellingPrice);
  out.text(',"discountedPrice":');
  out.number(pricing.discountedPrice);
  out.text(',"currency":');
  out.value(pricing.currency);
  out.text(',"discountPercentage":');
  out.number(pricing.discountPercentage);
  out.text(`},"inventory":{"totalQuantity":`);
  out.number(inventory.totalQuantity);
  out.text(',"remainingQuantity":');
  out.number(inventory.remainingQuantity);
  out.text(
    inventory.isOutOfStock
      ? ',"isOutOfStock":true},"userPurchaseUsage":'
      : ',"isOutOfStock":false},"userPurchaseUsage":',
  );
  if (usage === null) out.text('null');
  else {
    out.text('{"dailyPurchasedQty":');
    out.number(usage.dailyPurchasedQty);
    out.text(',"totalPurchasedQty":');
    out.number(usage.totalPurchasedQty);
    out.text(',"dailyRemaining":');
    out.number(usage.dailyRemaining);
    out.text(',"totalRemaining":');
    out.number(usage.totalRemaining);
    out.text('}');
  }
  out.text(',"validity":');
  out.shared(v.validity);
  out.text(',"terms":');
  out.shared(v.terms);
  out.text('}');
}

const envelope = '{"code":"SUCCESS","message":"Success","data":';

/** The success envelope holding one voucher. */
export function voucherJson(v: ShopVoucherResponse): Buffer {
  const out = new JsonBytes();
  out.text(envelope);
  voucher(out, v);
  out.text('}');
  return out.toBuffer();
}

/** The success envelope holding a page of vouchers. */
export function voucherPageJson(page: Page<ShopVoucherResponse>): Buffer {
  const out = new JsonBytes();
  out.text(`${envelope}{"content":[`);
  page.content.forEach((v, i) => {
    if (i > 0) out.text(',');
    voucher(out, v);
  });
  out.text('],"page":');
  out.value(page.page);
  out.text('}}');
  return out.toBuffer();
}
