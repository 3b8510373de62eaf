/**
 * The sandbox providers' hosted pages (/sandbox/payments/{transactionId}; docs/payments-sandbox.md): a public surface
 * a payer's browser opens (no gateway credentials; the address carries a signed token instead), serving HTML forms.
 * What the payer does becomes the provider's signed callback to the hub; then the browser goes back to the
 * transaction's returnURL, or sees the result.
 */
import { Router, type Request, type Response } from 'express';
import {
  afterAction,
  afterCardEntry,
  afterOtp,
  afterSavedCardOtp,
  digitsOnly,
  type CardTokenization,
  type PaymentsServices,
  type SandboxOutcome,
} from '../../application/payments/index.js';
import { isDomainError } from '../../application/shared/errors.js';
import type { Logger } from '../../application/shared/logger.js';
import { interfaceErrorHandler, unknownEndpoint, type InterfaceErrors } from '../shared/interface-errors.js';
import { formBody } from '../shared/json-body.js';
import { expressPath } from '../shared/route-spec.js';
import { errorPage, notFoundPage, paymentPage, resultPage, threeDsPage } from './sandbox-page.js';
import { sandboxPageRoutes } from './provider-routes.js';

const pageHeaders = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

/** The pages' answers to what no handler answered (a malformed form, an unknown path, a failure): HTML, no trace. */
const sandboxPageErrors: InterfaceErrors<never> = {
  name: 'sandbox payment pages',
  table: {},
  malformed: { invalid: 'INVALID', tooLarge: 'INVALID', unsupportedMediaType: 'INVALID' },
  unknownEndpoint: 'NOT_FOUND',
  internal: { code: 'INTERNAL', message: 'the sandbox could not complete this step; go back and try again' },
  send: (res, status, _code, message) => res.set(pageHeaders).status(status).send(errorPage(status, message)),
};

type PageResult = { status: number; html: string } | { redirect: string };

const walletActions = { WALLET: ['approve', 'decline'], BANK_TRANSFER: ['transfer-received'], QR: ['scan-and-pay'] };

function page(handler: (req: Request) => Promise<PageResult>) {
  return (req: Request, res: Response, next: (err?: unknown) => void) => {
    handler(req)
      .catch((err: unknown) => {
        // A wrong token or an unknown transaction: the same page, revealing nothing.
        if (isDomainError(err) && err.code === 'TRANSACTION_NOT_FOUND') return { status: 404, html: notFoundPage() };
        throw err;
      })
      .then((result) => {
        if ('redirect' in result) {
          res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).redirect(303, result.redirect);
          return;
        }
        res.set(pageHeaders).status(result.status).send(result.html);
      }, next);
  };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function sandboxRouter(deps: {
  services: PaymentsServices;
  sandbox: NonNullable<PaymentsServices['sandbox']>;
  logger: Logger;
}): Router {
  const { sandbox } = deps;
  const router = Router();

  router.get(
    expressPath(sandboxPageRoutes.page),
    page(async (req) => {
      const t = await sandbox.payment(req.params.transactionId ?? '', str(req.query.token));
      if (t.status !== 'PROCESSING') return { status: 200, html: resultPage(t) };
      const qr = t.paymentMethod.type === 'QR' ? await sandbox.qrFor(t) : null;
      return { status: 200, html: paymentPage(t, str(req.query.token), qr) };
    }),
  );

  router.post(
    expressPath(sandboxPageRoutes.act),
    ...formBody({ limit: '8kb' }),
    page(async (req) => {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const token = str(form.token);
      const t = await sandbox.payment(req.params.transactionId ?? '', token);
      if (t.status !== 'PROCESSING') return { status: 200, html: resultPage(t) };
      const action = str(form.action);
      const isCard = t.paymentMethod.type === 'CARD';
      const saved = t.savedCardNo ?? null;
      // "Save this card": offered only where the transaction is tokenizable (the page shows the box only then).
      const saveCard = t.tokenizable === true && str(form.saveCard) === 'yes';
      const expiry = str(form.expiry);
      let outcome: SandboxOutcome;
      if (action === 'cancel') outcome = afterAction('cancel');
      else if (action === 'card' && isCard && saved === null) {
        const entered = afterCardEntry(str(form.cardNumber), t.cardType);
        if (entered.next === '3DS')
          return { status: 200, html: threeDsPage(t, token, { cardNumber: entered.pan, saveCard, expiry }) };
        outcome = entered.outcome;
      } else if (action === 'saved-card' && isCard && saved !== null)
        return { status: 200, html: threeDsPage(t, token, null) };
      else if (action === 'otp' && isCard)
        outcome =
          saved !== null ? afterSavedCardOtp(saved, str(form.otp)) : afterOtp(str(form.cardNumber), str(form.otp));
      else if (
        (walletActions[t.paymentMethod.type as keyof typeof walletActions] as string[] | undefined)?.includes(action)
      )
        outcome = afterAction(action as Parameters<typeof afterAction>[0]);
      else return { status: 400, html: resultPage(t) };
      // The provider tokenizes the card it authorized; only the token, its fingerprint and the masked number travel.
      const tokenization: CardTokenization | null =
        saveCard && outcome.kind === 'AUTHORIZED'
          ? sandbox.tokenize(t.provider.code, digitsOnly(str(form.cardNumber)), expiry)
          : null;
      // The callback goes where configuration says, never to this request's Host (docs/payments-sandbox.md).
      const after = await sandbox.report(t, outcome, tokenization);
      return after.returnUrl ? { redirect: after.returnUrl } : { status: 200, html: resultPage(after) };
    }),
  );
  router.use(unknownEndpoint(sandboxPageErrors));
  router.use(interfaceErrorHandler(sandboxPageErrors, deps.logger));
  return router;
}
