import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  paymentsDecoders,
  paymentsEventDecoder,
  savedCardReactor,
  transactionDecider,
  userMethodsStream,
} from '../../../application/payments/index.js';
import { handleCommand } from '../../../application/shared/command-handler.js';
import { newCommandContext } from '../../../application/shared/command-context.js';
import { useHubScene, type InitData } from './hub-scene.js';
import {
  cardProviderId,
  configureTwoDCard,
  expectHubError,
  expectHubOk,
  hub,
  hubHeaders,
  initBody,
  sandboxPages,
  sign,
  walletProviderId,
} from './support.js';

interface SavedJson {
  userPaymentMethodId: string;
  paymentMethodCode: string;
  type: string;
  provider: { id: string; name: string; code: string };
  cardNo: string;
  cardBrand: string;
  expiry: string | null;
  createdAt: string;
}

/**
 * Saved payment methods over HTTP on PostgreSQL (docs/payments.md, "Saved payment methods"): a card saved on the
 * sandbox page by a host-app user, listed, paid with by userPaymentMethodId (3D through the page, 2D by a direct
 * charge), refused where it is not the user's, removed.
 */
describe('Payment hub saved payment methods (HTTP, PostgreSQL)', () => {
  const s = useHubScene();
  const { key, ts } = s;
  const card = { paymentMethodCode: 'CREDIT_CARD', providerId: cardProviderId };
  const as = (userId: string) => ({ 'X-MiniApp-User-ID': userId });

  before(async () => {
    for (const userId of ['u-save-1', 'u-save-2', 'u-save-3', 'u-save-4', 'u-save-5'])
      await s.app.container.services.identity.users.register(
        newCommandContext({ actor: { operator: 'tests' } }),
        userId,
        {
          name: userId,
        } as never,
      );
    // T2 has a 2D merchant id: a 2D payment there has no 3-D Secure step.
    await configureTwoDCard(s.app.baseUrl, 'shop-one', 'T2');
  });

  const pages = sandboxPages(() => s.app.baseUrl);
  const open = async (redirectUrl: string) => (await pages.open(redirectUrl)).text;
  const submit = async (redirectUrl: string, form: Record<string, string>) =>
    (await pages.submit(redirectUrl, form)).text;
  const initCard = async (
    orderId: string,
    userId: string | null,
    extra: Record<string, unknown> = {},
    terminal = 'T1',
  ) =>
    expectHubOk(
      await hub(
        s.app.baseUrl,
        'POST',
        '/transactions',
        { ...hubHeaders(key(s.m1, terminal), ts()), ...(userId ? as(userId) : {}) },
        initBody(s.m1.secretKey, orderId, { ...card, ...extra }),
      ),
    ) as InitData;
  /** Up to the 3-D Secure step with 4111…, the "save this card" box ticked: the page and the OTP form to post. */
  const toThreeDs = async (orderId: string, userId: string | null) => {
    const d = await initCard(orderId, userId);
    const redirectUrl = d.paymentInfo.redirectUrl as string;
    const threeDs = await submit(redirectUrl, {
      action: 'card',
      cardNumber: '4111 1111 1111 1111',
      expiry: '12/30',
      saveCard: 'yes',
    });
    expect(threeDs).to.include('id="three-ds"');
    const carried = [...threeDs.matchAll(/type="hidden" name="(cardNumber|saveCard|expiry)" value="([^"]*)"/g)];
    const otp = { action: 'otp', otp: '123456', ...Object.fromEntries(carried.map((m) => [m[1], m[2]])) };
    return { id: d.transaction.id, redirectUrl, otp };
  };
  /** Pays with 4111… on the card page, the "save this card" box ticked, through 3-D Secure. */
  const payAndSave = async (orderId: string, userId: string | null) => {
    const { id, redirectUrl, otp } = await toThreeDs(orderId, userId);
    expect(await submit(redirectUrl, otp)).to.include('<strong id="status">COMPLETED</strong>');
    return id;
  };
  const listSaved = async (userId: string, m = s.m1, terminal = 'T1') =>
    hub(s.app.baseUrl, 'GET', '/user-payment-methods', { ...hubHeaders(key(m, terminal), ts()), ...as(userId) });
  const savedOf = async (userId: string) => (expectHubOk(await listSaved(userId)) as { items: SavedJson[] }).items;

  let savedId: string;

  it('a host-app user ticks "save this card": after the payment the card is a saved method, masked, its token encrypted', async () => {
    const d = await initCard('SV-1', 'u-save-1');
    expect(await open(d.paymentInfo.redirectUrl as string)).to.include('id="save-card"');
    const transactionId = await payAndSave('SV-1b', 'u-save-1');
    const items = await savedOf('u-save-1');
    expect(items).to.have.length(1);
    savedId = items[0]!.userPaymentMethodId;
    expect(items[0]).to.deep.equal({
      userPaymentMethodId: savedId,
      paymentMethodCode: 'CREDIT_CARD',
      type: 'CARD',
      provider: { id: cardProviderId, name: 'Sandbox card gateway', code: 'SANDBOX_CARD' },
      cardNo: '411111******1111',
      cardBrand: 'VISA',
      expiry: '12/30',
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    // Neither the card number nor the provider's token is anywhere in the log in clear.
    const logged = JSON.stringify([
      ...(await s.app.container.store.readStream(`transaction-${transactionId}`)),
      ...(await s.app.container.store.readStream(userMethodsStream('shop-one', 'u-save-1'))),
    ]);
    expect(logged).not.to.include('4111111111111111').and.not.to.include('sbxtok_');
    expect(logged).to.match(/"encryptedToken":"k1\./);
  });

  it('the same card saved again stays one method; without a host-app user the page offers no saving', async () => {
    await payAndSave('SV-2', 'u-save-1');
    expect(await savedOf('u-save-1')).to.have.length(1);
    const d = await initCard('SV-3', null);
    expect(await open(d.paymentInfo.redirectUrl as string)).not.to.include('id="save-card"');
    // A "save" posted anyway (the box was not offered) saves nothing: the transaction is not tokenizable.
    await payAndSave('SV-4', null);
    const t = await s.app.container.services.payments.transactions.load(d.transaction.id);
    expect(t.tokenizable).to.equal(false);
    expect(await savedOf('u-save-2')).to.deep.equal([]);
  });

  it('the same card saved by parallel payments of one user is one method (the user stream serialises the saves)', async () => {
    const pending = await Promise.all(
      ['SV-P1', 'SV-P2', 'SV-P3', 'SV-P4', 'SV-P5'].map((o) => toThreeDs(o, 'u-save-4')),
    );
    // The five OTPs at once: five authorizations, each saving the same card.
    const pages = await Promise.all(pending.map((p) => submit(p.redirectUrl, p.otp)));
    for (const page of pages) expect(page).to.include('<strong id="status">COMPLETED</strong>');
    expect((await savedOf('u-save-4')).map((m) => m.cardNo)).to.deep.equal(['411111******1111']);
    expect(await s.app.container.store.readStream(userMethodsStream('shop-one', 'u-save-4'))).to.have.length(1);
  });

  it('GET payment-methods with X-MiniApp-User-ID lists the saved cards under their method; without it, no such field', async () => {
    const methods = (userId?: string) =>
      hub(s.app.baseUrl, 'GET', '/payment-methods?amount=150000&currency=VND', {
        ...hubHeaders(key(s.m1), ts()),
        ...(userId ? as(userId) : {}),
      });
    const withUser = (await methods('u-save-1')).body as unknown as {
      items: { code: string; savedMethods?: SavedJson[] }[];
    };
    expect(withUser.items.map((i) => [i.code, i.savedMethods?.map((m) => m.userPaymentMethodId)])).to.deep.equal([
      ['CREDIT_CARD', [savedId]],
      ['WALLET', []],
    ]);
    const without = (await methods()).body as unknown as { items: Record<string, unknown>[] };
    expect(without.items.every((i) => !('savedMethods' in i))).to.equal(true);
    expectHubError(await methods('nobody-here'), 404, 4302);
  });

  it('init with userPaymentMethodId (3D): it wins over method and provider; the page asks only the 3-D Secure OTP', async () => {
    const d = await initCard('SV-5', 'u-save-1', {
      paymentMethodCode: 'WALLET',
      providerId: walletProviderId,
      userPaymentMethodId: savedId,
    });
    expect(d.transaction.status).to.equal('PROCESSING');
    expect(d.paymentInfo).to.include({
      requiresRedirect: true,
      providerCode: 'SANDBOX_CARD',
      providerId: cardProviderId,
    });
    const redirectUrl = d.paymentInfo.redirectUrl as string;
    const form = await open(redirectUrl);
    expect(form).to.include('<code id="saved-card">411111******1111</code>').and.not.include('id="card-number"');
    expect(await submit(redirectUrl, { action: 'saved-card' })).to.include('id="three-ds"');
    expect(await submit(redirectUrl, { action: 'otp', otp: '000000' })).to.include(
      '<strong id="status">FAILED</strong>',
    );

    const again = await initCard('SV-6', 'u-save-1', { userPaymentMethodId: savedId.toUpperCase() });
    await submit(again.paymentInfo.redirectUrl as string, { action: 'saved-card' });
    expect(await submit(again.paymentInfo.redirectUrl as string, { action: 'otp', otp: '123456' })).to.include(
      '<strong id="status">COMPLETED</strong>',
    );
    const t = await s.app.container.services.payments.transactions.load(again.transaction.id);
    expect(t).to.deep.include({ userPaymentMethodId: savedId, status: 'COMPLETED' });
    expect(t.paymentMethod.code).to.equal('CREDIT_CARD');
    expect(t.payment?.cardNo).to.equal('411111******1111');
  });

  it('init with userPaymentMethodId and paymentType 2D: a direct charge, answered COMPLETED without a page', async () => {
    const body = initBody(s.m1.secretKey, 'SV-7', { userPaymentMethodId: savedId, paymentType: '2D' });
    body.secureHash = sign(s.m1.secretKey, 'SV-7|REF-SV-7|150000|VND|1772359200000|2D');
    const headers = { ...hubHeaders(key(s.m1, 'T2'), ts()), ...as('u-save-1') };
    const res = await hub(s.app.baseUrl, 'POST', '/transactions', headers, body);
    const d = expectHubOk(res) as InitData;
    expect(d.transaction).to.include({ status: 'COMPLETED', cardType: '2D', skipHolding: true });
    expect(d.paymentInfo).to.deep.equal({
      requiresRedirect: false,
      providerCode: 'SANDBOX_CARD',
      providerId: cardProviderId,
      providerTransaction: `SBX-${d.transaction.id}`,
      amount: 150000,
    });
    // A resend under the same X-Request-ID answers the same and charges nothing twice.
    const resent = expectHubOk(await hub(s.app.baseUrl, 'POST', '/transactions', headers, body)) as InitData;
    expect(resent.transaction).to.deep.equal(d.transaction);
    const events = await s.app.container.store.readStream(`transaction-${d.transaction.id}`);
    expect(events.map((e) => e.type)).to.deep.equal([
      'TransactionInitiated',
      'TransactionProcessing',
      'TransactionCompleted',
    ]);
    const lookup = expectHubOk(
      await hub(
        s.app.baseUrl,
        'GET',
        `/transactions?transactionId=${d.transaction.id}`,
        hubHeaders(key(s.m1, 'T2'), ts()),
      ),
    ) as { items: { status: string; cardNo: string }[] };
    expect(lookup.items[0]).to.include({ status: 'COMPLETED', cardNo: '411111******1111' });

    // The sandbox declines a direct charge of an amount ending in 51.
    const declined = initBody(s.m1.secretKey, 'SV-8', {
      userPaymentMethodId: savedId,
      paymentType: '2D',
      amount: 150051,
    });
    declined.secureHash = sign(s.m1.secretKey, 'SV-8|REF-SV-8|150051|VND|1772359200000|2D');
    const failed = expectHubOk(
      await hub(
        s.app.baseUrl,
        'POST',
        '/transactions',
        { ...hubHeaders(key(s.m1, 'T2'), ts()), ...as('u-save-1') },
        declined,
      ),
    ) as InitData;
    expect(failed.transaction.status).to.equal('FAILED');
    expect((await s.app.container.services.payments.transactions.load(failed.transaction.id)).errorCode).to.equal('51');
  });

  it('a 2D card payment (no 3-D Secure step) saves the card too when the box is ticked', async () => {
    const body = initBody(s.m1.secretKey, 'SV-2D-SAVE', { ...card, paymentType: '2D' });
    body.secureHash = sign(s.m1.secretKey, 'SV-2D-SAVE|REF-SV-2D-SAVE|150000|VND|1772359200000|2D');
    const headers = { ...hubHeaders(key(s.m1, 'T2'), ts()), ...as('u-save-5') };
    const d = expectHubOk(await hub(s.app.baseUrl, 'POST', '/transactions', headers, body)) as InitData;
    const redirectUrl = d.paymentInfo.redirectUrl as string;
    expect(await open(redirectUrl)).to.include('id="save-card"');
    const paid = await submit(redirectUrl, {
      action: 'card',
      cardNumber: '4111111111111111',
      expiry: '07/31',
      saveCard: 'yes',
    });
    expect(paid).to.include('<strong id="status">COMPLETED</strong>').and.not.include('three-ds');
    expect((await savedOf('u-save-5')).map((m) => [m.cardNo, m.expiry])).to.deep.equal([['411111******1111', '07/31']]);
  });

  it('refuses a saved method that is not the user’s, unknown, without the user header, or on another merchant (4001)', async () => {
    const refused = async (
      orderId: string,
      headers: Record<string, string>,
      m = s.m1,
      userPaymentMethodId = savedId,
    ) => {
      const res = await hub(
        s.app.baseUrl,
        'POST',
        '/transactions',
        { ...hubHeaders(key(m), ts()), ...headers },
        initBody(m.secretKey, orderId, { userPaymentMethodId }),
      );
      return expectHubError(res, 400, 4001);
    };
    expect(await refused('SV-9', as('u-save-2'))).to.match(/userPaymentMethodId/);
    expect(await refused('SV-10', as('u-save-1'), s.m1, randomUUID())).to.match(/userPaymentMethodId/);
    expect(await refused('SV-11', { 'X-External-User-ID': 'u-save-1' })).to.match(/X-MiniApp-User-ID/);
    expect(await refused('SV-12', as('u-save-1'), s.m2)).to.match(/userPaymentMethodId/);
    // Nothing was appended for them: the orderIds are still free.
    expectHubOk(await s.init(s.m1, 'SV-9'));
  });

  it('removes a saved method (signed), after which it is neither listed nor usable; a second removal is 404 4303', async () => {
    const remove = (userId: string, id: string, hash?: string) => {
      const timestamp = ts();
      return hub(
        s.app.baseUrl,
        'PUT',
        '/user-payment-methods/remove',
        { ...hubHeaders(key(s.m1), timestamp), ...as(userId) },
        { userPaymentMethodId: id, secureHash: hash ?? sign(s.m1.secretKey, `${id}|${userId}|${timestamp}`) },
      );
    };
    expectHubError(await remove('u-save-1', savedId, sign(s.m1.secretKey, `${savedId}|u-save-2|${ts()}`)), 401, 4102);
    expectHubError(await remove('u-save-2', savedId), 404, 4303);
    expectHubError(await remove('nobody-here', savedId), 404, 4302);
    expect(await savedOf('u-save-1')).to.have.length(1);
    const res = await remove('u-save-1', savedId);
    expect(expectHubOk(res)).to.equal(undefined);
    expect(await savedOf('u-save-1')).to.deep.equal([]);
    expectHubError(await remove('u-save-1', savedId), 404, 4303);
    const init = await hub(
      s.app.baseUrl,
      'POST',
      '/transactions',
      { ...hubHeaders(key(s.m1), ts()), ...as('u-save-1') },
      initBody(s.m1.secretKey, 'SV-13', { userPaymentMethodId: savedId }),
    );
    expect(expectHubError(init, 400, 4001)).to.match(/no saved payment method/);
    // The list needs the user: without the header, 4001.
    expectHubError(await hub(s.app.baseUrl, 'GET', '/user-payment-methods', hubHeaders(key(s.m1), ts())), 400, 4001);
  });

  it('a crash between the authorization and the save loses no card: the saved-cards reactor saves it, once', async () => {
    const d = await initCard('SV-14', 'u-save-3');
    const { payments } = s.app.container.services;
    const t = await payments.transactions.load(d.transaction.id);
    const savedCard = payments.savedMethods.sealCard(t, 'u-save-3', {
      providerToken: payments.sandbox!.tokenize('SANDBOX_CARD', '4000000000000077', '01/29').providerToken,
      fingerprint: 'fp-crash',
      cardNo: '400000******0077',
      cardBrand: 'VISA',
      expiry: '01/29',
    });
    // The authorization appended as the callback appends it, and the process dies before saving the card.
    await handleCommand(
      { store: s.app.container.store, clock: s.clock, decoder: paymentsEventDecoder },
      newCommandContext({ actor: { process: 'provider:SANDBOX_CARD' } }),
      {
        decider: transactionDecider,
        decoder: paymentsDecoders.transaction,
        streamName: `transaction-${t.transactionId}`,
        command: (now) => ({
          type: 'RecordAuthorization' as const,
          payment: { bankName: null, accountHolderName: null, cardNo: '400000******0077' },
          holdExpiresAt: now,
          savedCard,
          now,
        }),
      },
    );
    expect(await savedOf('u-save-3')).to.deep.equal([]);
    const recorded = (await s.app.container.store.readStream(`transaction-${t.transactionId}`)).at(-1)!;
    const event = { ...recorded, ...paymentsEventDecoder.decode(recorded) };
    const reactor = savedCardReactor(payments);
    await reactor.react(event);
    await reactor.react(event);
    expect((await savedOf('u-save-3')).map((m) => [m.userPaymentMethodId, m.cardNo])).to.deep.equal([
      [savedCard.userPaymentMethodId, '400000******0077'],
    ]);
    expect(await s.app.container.store.readStream(userMethodsStream('shop-one', 'u-save-3'))).to.have.length(1);
  });
});
