/**
 * The payment hub's module, infrastructure half: its configuration slice, its secrets and how its services are built
 * from the shared adapters, its own migrations, metrics, demo seed and the ipn role's runner. The only file of
 * infrastructure/payments the composition root imports (docs/conventions.md, "Modules").
 */
import {
  IpnDispatcher,
  IpnNotifications,
  paymentsTimerHandlers,
  providerSettlementReactor,
  RefundCallbacks,
  refundReactor,
  RefundService,
  InProcessHubCallbacks,
  savedCardReactor,
  TransactionSnapshots,
  PaymentMerchantDirectory,
  PaymentMethodListing,
  PaymentOnboarding,
  ProviderCallbacks,
  SandboxProviders,
  SavedPaymentMethods,
  type PaymentProviderPort,
  type CallbackSender,
  RequestSignatures,
  TransactionService,
  type PaymentsServices,
  PaymentSessionService,
  paymentSessionTimerHandlers,
  sessionPaymentReactor,
} from '../../application/payments/index.js';
import {
  abandonmentTimer,
  holdExpiryTimer,
  paymentsIpnOutboxProjector,
  paymentsTimersTable,
  paymentSessionIpnOutboxProjector,
  paymentSessionTimersTable,
  sessionExpiryTimer,
} from '../../projections/payments/index.js';
import { defaultLeaseOwner } from '../shared/messaging/lease.js';
import { ipnAttemptDuration, ipnAttempts } from './metrics.js';
import { HttpIpnSender } from './ipn-http-sender.js';
import { ipnDispatcherJob } from './ipn-job.js';
import { PostgresIpnOutbox } from './ipn-outbox-store.js';
import type { BuiltContext, ContextDeps, RoleRunner } from '../shared/context.js';
import { AesGcmSecretCipher } from '../shared/secret-cipher.js';
import { timerJob } from '../shared/timer-job.js';
import { hmacSha256Hex } from '../../application/shared/signatures.js';
import QRCode from 'qrcode';
import { HttpCallbackSender } from './http-callback-sender.js';
import { egressPolicyOf } from '../shared/outbound/egress-policy.js';
import { OutboundHttp } from '../shared/outbound/outbound-http.js';
import { KnexTransactionListing } from './transaction-listing.js';
import { sandboxOn } from '../shared/sandboxes.js';
import type { PaymentsConfig } from './config.js';
import type { PaymentsSecrets } from './secrets.js';

export { paymentsConfig, type PaymentsConfig } from './config.js';
export { paymentsSecrets, type PaymentsSecrets } from './secrets.js';
export { demoIpnUrl, paymentsDemo, seedPaymentsDemo, type PaymentsDemoData } from './demo-seed.js';
export { paymentsMetrics } from './metrics.js';
export { paymentsMigrations } from './migrations.js';

type CommandDeps = Pick<
  ContextDeps<PaymentsConfig, PaymentsSecrets>,
  'config' | 'secrets' | 'store' | 'clock' | 'ports' | 'egress'
>;

/** The hub with its stored timers' job (docs/payments.md, "Timers"), which polls payments_timers. */
export function buildPayments(deps: ContextDeps<PaymentsConfig, PaymentsSecrets>): BuiltContext<PaymentsServices> {
  const { providers, cipher, outbound, ...built } = assemble(deps);
  const handlers = paymentsTimerHandlers({
    transactions: built.services.transactions,
    holdExpiryStatus: deps.config.PAYMENTS_HOLD_EXPIRY_STATUS,
    kinds: { holdExpiry: holdExpiryTimer, abandonment: abandonmentTimer },
  });
  const { knex, clock, logger, config } = deps;
  const outbox = new PostgresIpnOutbox(knex);
  const sender = new HttpIpnSender(outbound);
  const dispatcher = new IpnDispatcher({
    outbox,
    sender,
    directory: built.services.directory,
    cipher,
    clock,
    logger,
    owner: defaultLeaseOwner(),
    settings: {
      timeoutMs: config.PAYMENTS_IPN_TIMEOUT_MS,
      policy: {
        firstWaitMs: config.PAYMENTS_IPN_FIRST_RETRY_MS,
        maxWaitMs: config.PAYMENTS_IPN_MAX_RETRY_WAIT_SECONDS * 1000,
        jitterRatio: 0.1,
      },
      concurrency: config.PAYMENTS_IPN_CONCURRENCY,
      perMerchant: config.PAYMENTS_IPN_PER_MERCHANT,
      // Longer than any POST (the timeout bounds it), so a live dispatcher never loses a lease mid-request.
      leaseMs: config.PAYMENTS_IPN_TIMEOUT_MS + 10_000,
    },
    onAttempt: (result) => {
      ipnAttempts.inc({ verdict: result.verdict });
      if (result.latencyMs !== null) ipnAttemptDuration.observe(result.latencyMs / 1000);
    },
  });
  const ipnJob = ipnDispatcherJob({
    dispatcher,
    outbox,
    logger,
    clock,
    pollMs: config.PAYMENTS_IPN_POLL_MS,
  });
  const ipn = new IpnNotifications({ outbox, onboarding: built.services.onboarding, clock, logger });
  return {
    ...built,
    services: { ...built.services, transactionListing: new KnexTransactionListing(knex), ipn },
    jobs: [
      timerJob({ table: paymentsTimersTable, handlers, knex, clock, logger }),
      ipnJob,
      timerJob({
        table: paymentSessionTimersTable,
        handlers: paymentSessionTimerHandlers({ sessions: built.services.sessions, kind: sessionExpiryTimer }),
        knex,
        clock,
        logger,
      }),
    ],
    reactors: [
      providerSettlementReactor({ transactions: built.services.transactions, providers }),
      savedCardReactor(built.services),
      refundReactor({ transactions: built.services.transactions, refunds: built.services.refunds, providers }),
      sessionPaymentReactor(built.services),
    ],
  };
}

/** The ipn role's own runner: the outbox projectors whose rows its dispatcher delivers (docs/ipn.md). */
export const paymentsRunners: readonly RoleRunner[] = [
  { role: 'ipn', projectors: [paymentsIpnOutboxProjector, paymentSessionIpnOutboxProjector] },
];

/** The command side only: the event store's adapters (so fast tests build it on an in-memory store too). */
export function buildPaymentsCommands(deps: CommandDeps): BuiltContext<PaymentsServices> {
  const { providers: _providers, cipher: _cipher, outbound: _outbound, ...built } = assemble(deps);
  return built;
}

/** The services, and the provider ports they use (the settlement reactor calls them too). */
function assemble(deps: CommandDeps): BuiltContext<PaymentsServices> & {
  providers: Map<string, PaymentProviderPort>;
  cipher: AesGcmSecretCipher;
  outbound: OutboundHttp;
} {
  const { config, secrets, store, clock, ports } = deps;
  // The one outbound client of the hub's sends (IPNs, the sandbox's callbacks) and its egress policy (docs/outbound.md).
  const outbound = new OutboundHttp(deps.egress ?? egressPolicyOf(config));
  const cipher = new AesGcmSecretCipher(
    'payments-merchant-secret',
    secrets.PAYMENTS_SECRETS_KEY,
    secrets.PAYMENTS_SECRETS_OLD_KEYS,
  );
  const directory = new PaymentMerchantDirectory({ store, clock });
  // Saved cards' provider tokens: encrypted under the same key, for their own purpose (a text of one use never opens
  // as the other).
  const savedMethods = new SavedPaymentMethods({
    store,
    clock,
    cipher: new AesGcmSecretCipher(
      'payments-card-token',
      secrets.PAYMENTS_SECRETS_KEY,
      secrets.PAYMENTS_SECRETS_OLD_KEYS,
    ),
    users: () => ports.get('users'),
  });
  // The sandbox's keys derive from the hub's encryption key under their own labels: no further secret to manage.
  const keys = {
    page: hmacSha256Hex(secrets.PAYMENTS_SECRETS_KEY, 'sandbox-page-key'),
    provider: (code: string) => hmacSha256Hex(secrets.PAYMENTS_SECRETS_KEY, `sandbox-provider-key:${code}`),
  };
  // Filled below: the providers read transactions, and transactions start payments at the providers.
  const providers = new Map<string, PaymentProviderPort>();
  const sessions = new PaymentSessionService({
    store,
    clock,
    defaultTtlSeconds: config.PAYMENTS_SESSION_TTL_SECONDS,
  });
  const transactions = new TransactionService({
    sessions,
    store,
    clock,
    directory,
    // The identity context's directory, reached while serving (never while building).
    users: () => ports.get('users'),
    providers,
    savedMethods,
    settings: {
      abandonAfterSeconds: config.PAYMENTS_ABANDON_AFTER_SECONDS,
      holdTimeoutSeconds: (code) =>
        config.PAYMENTS_PROVIDER_HOLD_TIMEOUTS.get(code) ?? config.PAYMENTS_HOLD_TIMEOUT_SECONDS,
    },
  });
  const sandbox = new SandboxProviders({
    keys,
    baseUrl: (config.PAYMENTS_SANDBOX_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, ''),
    sender: sandboxCallbackSender(config.PAYMENTS_SANDBOX_CALLBACK_BASE_URL, outbound, () => hub),
    qrImage: (text) => QRCode.toDataURL(text, { errorCorrectionLevel: 'M', width: 240, margin: 1 }),
    transactions,
    clock,
  });
  // Production registers no sandbox provider and mounts no page unless SANDBOXES_ALLOWED names it (sandboxes.ts).
  const sandboxRuns = sandboxOn(config, 'payments', config.PAYMENTS_SANDBOX);
  if (sandboxRuns) for (const [code, port] of sandbox.ports()) providers.set(code, port);
  const refunds = new RefundService({ store, clock, transactions, sessions });
  const hub = {
    providerCallbacks: new ProviderCallbacks({ keys, transactions, savedMethods }),
    refundCallbacks: new RefundCallbacks({ refunds, transactions }),
  };
  return {
    services: {
      directory,
      paymentMethods: new PaymentMethodListing({ directory }),
      onboarding: new PaymentOnboarding({
        store,
        clock,
        cipher,
        directory,
        secretOverlapSeconds: config.PAYMENTS_SECRET_OVERLAP_SECONDS,
        targets: outbound,
      }),
      signatures: new RequestSignatures({
        directory,
        cipher,
        clock,
        timestampWindowSeconds: config.PAYMENTS_TIMESTAMP_WINDOW_SECONDS,
      }),
      transactions,
      ...(sandboxRuns && { sandbox }),
      savedMethods,
      sessions,
      refunds,
      ...hub,
      snapshots: new TransactionSnapshots({ store, clock, directory, users: () => ports.get('users') }),
    },
    jobs: [],
    // Refund callbacks the sandbox has not sent yet are dropped (a redelivered request sends them again).
    stop: async () => {
      sandbox.refunds.stop();
      outbound.close();
    },
    providers,
    cipher,
    outbound,
  };
}

/**
 * Where the sandbox's callbacks go (docs/payments-sandbox.md, "Callbacks"): PAYMENTS_SANDBOX_CALLBACK_BASE_URL over
 * HTTP through the outbound client, refused at start when the egress policy would refuse it; unset, in this process.
 * Never the origin a page was requested on.
 */
function sandboxCallbackSender(
  baseUrl: string | undefined,
  outbound: OutboundHttp,
  hub: ConstructorParameters<typeof InProcessHubCallbacks>[0],
): CallbackSender {
  if (baseUrl === undefined) return new InProcessHubCallbacks(hub);
  const refused = outbound.refusal(baseUrl);
  if (refused) throw new Error(`PAYMENTS_SANDBOX_CALLBACK_BASE_URL: the egress policy refuses it: ${refused}`);
  return new HttpCallbackSender(baseUrl.replace(/\/+$/, ''), outbound);
}
