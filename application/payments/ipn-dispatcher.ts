/**
 * The IPN dispatcher (docs/ipn.md, "How it works"): claims due notifications from the outbox under a lease, signs
 * each payload with the merchant's current secretKey, POSTs it to the merchant's registered postback URL and records
 * the attempt; what the outcome does (deliver, retry after a stored backoff, reject, exhaust) is
 * domain/payments/ipn-delivery.ts's decision. Sends run side by side up to `concurrency`, at most `perMerchant` per
 * merchant, so a slow or dead partner holds only its own slots and never delays the others.
 */
import { setMaxListeners } from 'node:events';
import {
  ipnDeliveryDecider,
  ipnVerificationString,
  partnerStatuses,
  verdictOf,
  type AttemptOutcome,
  type IpnContent,
  type IpnDeliveryEvent,
  type PartnerStatus,
  type RetryPolicy,
} from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { SecretCipher } from '../shared/secret-cipher.js';
import { hmacSha256Hex } from '../shared/signatures.js';
import type { PaymentMerchantDirectory } from './merchant-directory.js';
import type { AttemptResult, ClaimedNotification, IpnOutbox, IpnSender, PostResult } from './ipn-ports.js';
import { secretBinding } from './request-signatures.js';

export interface IpnDispatchSettings {
  /** Answer wait per POST (the seed: 15 s). */
  timeoutMs: number;
  policy: RetryPolicy;
  /** Sends in flight in this process. */
  concurrency: number;
  /** Sends in flight per merchant (across dispatchers). */
  perMerchant: number;
  /** Lease of a claimed notification: longer than the timeout, so a live sender never loses it mid-request. */
  leaseMs: number;
}

/** Characters of an answer kept in the attempt's record (docs/ipn.md, "Operations"). */
export const answerExcerptLength = 160;

/**
 * What the attempt log keeps of a partner's answer: its first `answerExcerptLength` characters, each control
 * character (C0, DEL, C1, line separators, bidirectional controls) made a space, with "…" when cut. Enough for an
 * operator to tell a partner's own message from an error page; never the target's whole answer, and nothing that
 * would rewrite a terminal or a log line. (The partner's `status` and the HTTP status are kept apart.)
 */
export function answerExcerpt(body: string): string {
  const chars = Array.from(body);
  const kept = chars.slice(0, answerExcerptLength).join('');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
  const clean = kept.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ');
  return chars.length > answerExcerptLength ? `${clean}…` : clean;
}

/** The partner's `status`, from a JSON answer; null for anything else. */
export function partnerStatusOf(body: string): PartnerStatus | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    const status = (parsed as { status?: unknown } | null)?.status;
    return typeof status === 'string' && (partnerStatuses as readonly string[]).includes(status)
      ? (status as PartnerStatus)
      : null;
  } catch {
    return null;
  }
}

/** The signed payload: the content and its secureHash over the IPN verification string. */
export function signIpn(content: IpnContent, secretKey: string): IpnContent & { secureHash: string } {
  return { ...content, secureHash: hmacSha256Hex(secretKey, ipnVerificationString(content)) };
}

export class IpnDispatcher {
  private readonly inFlight = new Map<string, Promise<void>>();
  private pumping = false;
  private again = false;
  private stopped = true;
  private stopping = new AbortController();

  constructor(
    private readonly deps: {
      outbox: IpnOutbox;
      sender: IpnSender;
      directory: PaymentMerchantDirectory;
      cipher: SecretCipher;
      clock: Clock;
      logger: Logger;
      settings: IpnDispatchSettings;
      /** This process's name in leases and attempt records. */
      owner: string;
      /** In [0, 1): the jitter's random share (injected for tests). */
      random?: () => number;
      /** Told of every recorded attempt (metrics). */
      onAttempt?: (result: AttemptResult) => void;
    },
  ) {}

  start(): void {
    this.stopped = false;
    this.stopping = new AbortController();
    // Every POST in flight listens on it.
    setMaxListeners(this.deps.settings.concurrency + 10, this.stopping.signal);
  }

  /**
   * Stops claiming, cuts the POSTs in flight short and waits until each recorded its attempt (a network error: the
   * retry follows the stored schedule), so a stop takes no longer than a database write.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    await Promise.all(this.inFlight.values());
  }

  get sending(): number {
    return this.inFlight.size;
  }

  /**
   * Claims what is due while there are free slots and starts sending it; resolves once no more is due (the sends go
   * on). Called by the poll and again whenever a send ends.
   */
  async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        const free = this.deps.settings.concurrency - this.inFlight.size;
        if (this.stopped || free <= 0) break;
        const claimed = await this.deps.outbox.claim(this.deps.owner, this.deps.clock.now(), {
          limit: free,
          perMerchant: this.deps.settings.perMerchant,
          leaseMs: this.deps.settings.leaseMs,
        });
        for (const c of claimed) {
          const sending = this.send(c).finally(() => {
            this.inFlight.delete(c.notificationId);
            if (!this.stopped) void this.pump().catch(() => undefined);
          });
          this.inFlight.set(c.notificationId, sending);
        }
        if (claimed.length === free) this.again = true;
      } while (this.again && !this.stopped);
    } finally {
      this.pumping = false;
    }
  }

  /** One attempt: sign, post, judge, record. Never throws (a failure to record leaves the lease to run out). */
  private async send(c: ClaimedNotification): Promise<void> {
    try {
      const result = await this.attempt(c);
      const recorded = await this.deps.outbox.record(result, this.deps.clock.now());
      if (!recorded)
        this.deps.logger.warn('IPN attempt result not recorded: the lease went to another dispatcher', {
          notificationId: c.notificationId,
          attemptNo: c.attemptNo,
        });
      else this.deps.onAttempt?.(result);
    } catch (err) {
      this.deps.logger.error('IPN attempt failed to complete; retried when its lease ends', {
        notificationId: c.notificationId,
        attemptNo: c.attemptNo,
        err,
      });
    }
  }

  private async attempt(c: ClaimedNotification): Promise<AttemptResult> {
    const merchant = await this.deps.directory.merchant(c.merchantCode);
    const base = { notificationId: c.notificationId, attemptNo: c.attemptNo, fence: c.fence };
    const none = { url: null, httpStatus: null, latencyMs: null, responseHead: null, partnerStatus: null };
    if (!merchant) throw new Error(`no payment merchant ${c.merchantCode}`);
    // An attempt a dead dispatcher began counts as made: one beyond the merchant's retries is not sent.
    if (c.attemptNo - c.roundStart > 1 + merchant.maxIpnRetries)
      return {
        ...base,
        ...none,
        error: 'no retry left (the previous attempt was interrupted)',
        verdict: 'EXHAUSTED',
        status: 'EXHAUSTED',
        nextAttemptAt: null,
      };
    const url = registeredUrl(merchant.ipnUrl);
    let outcome: AttemptOutcome;
    let post: PostResult | null = null;
    if (typeof url === 'string') outcome = { kind: 'URL_REFUSED', message: url };
    else {
      const secret = merchant.secrets.find((s) => s.validUntil === null)!;
      const key = this.deps.cipher.decrypt(
        secret.encryptedSecret,
        secretBinding(merchant.merchantCode, secret.secretId),
      );
      const body = JSON.stringify(signIpn(c.content, key));
      post = await this.deps.sender.post(
        url,
        body,
        {
          'Content-Type': 'application/json',
          'User-Agent': 'payment-hub-ipn/1',
          'X-IPN-Notification-Id': c.notificationId,
          'X-IPN-Attempt': String(c.attemptNo),
        },
        this.deps.settings.timeoutMs,
        this.stopping.signal,
      );
      outcome =
        post.kind === 'RESPONSE'
          ? { kind: 'RESPONSE', httpStatus: post.httpStatus, partnerStatus: partnerStatusOf(post.body) }
          : post.kind === 'TIMEOUT'
            ? { kind: 'TIMEOUT' }
            : post.kind === 'REFUSED'
              ? // The egress policy refused where the URL leads (docs/outbound.md): like a URL the hub never posts to.
                { kind: 'URL_REFUSED', message: `the egress policy refuses the target: ${post.message}` }
              : { kind: 'NETWORK_ERROR', message: post.message };
    }
    const now = this.deps.clock.now().toISOString();
    const state = {
      status: 'PENDING' as const,
      attempts: c.attemptNo - 1,
      roundStart: c.roundStart,
      nextAttemptAt: now,
    };
    const [decided] = ipnDeliveryDecider.decide(
      {
        type: 'RecordAttempt',
        attemptNo: c.attemptNo,
        outcome,
        maxRetries: merchant.maxIpnRetries,
        policy: this.deps.settings.policy,
        jitter: (this.deps.random ?? Math.random)(),
        now,
      },
      state,
    );
    const after = afterDecision(decided!);
    return {
      ...base,
      url: url instanceof URL ? url.toString() : merchant.ipnUrl,
      httpStatus: post?.kind === 'RESPONSE' ? post.httpStatus : null,
      latencyMs: post ? post.latencyMs : null,
      responseHead: post?.kind === 'RESPONSE' ? answerExcerpt(post.body) : null,
      partnerStatus: outcome.kind === 'RESPONSE' ? outcome.partnerStatus : null,
      error:
        outcome.kind === 'TIMEOUT'
          ? `no answer within ${this.deps.settings.timeoutMs} ms`
          : outcome.kind === 'NETWORK_ERROR' || outcome.kind === 'URL_REFUSED'
            ? outcome.message
            : null,
      verdict: after.status === 'EXHAUSTED' ? 'EXHAUSTED' : verdictOf(outcome),
      ...after,
    };
  }
}

function afterDecision(event: IpnDeliveryEvent): Pick<AttemptResult, 'status' | 'nextAttemptAt'> {
  switch (event.type) {
    case 'IpnAttemptFailed':
      return { status: 'PENDING', nextAttemptAt: event.data.retryAt };
    case 'IpnDelivered':
      return { status: 'DELIVERED', nextAttemptAt: null };
    case 'IpnRejected':
      return { status: 'REJECTED', nextAttemptAt: null };
    case 'IpnExhausted':
      return { status: 'EXHAUSTED', nextAttemptAt: null };
    default:
      throw new Error(`unexpected delivery decision ${event.type}`);
  }
}

/** The registered postback URL if the hub posts to it (http or https only), else why not. */
export function registeredUrl(ipnUrl: string): URL | string {
  let url: URL;
  try {
    url = new URL(ipnUrl);
  } catch {
    return `the registered ipnUrl is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the registered ipnUrl is not http or https`;
  if (url.username || url.password) return 'the registered ipnUrl carries credentials';
  return url;
}
