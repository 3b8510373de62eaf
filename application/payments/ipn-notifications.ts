/**
 * The operators' view of the IPN outbox (docs/ipn.md, "Operations"): notifications and attempts by merchant,
 * transaction or status, and resends (one notification, or every EXHAUSTED one of a merchant), attributed to the
 * operator who asked (resent_by, and the log line).
 */
import { paymentsError } from '../../domain/payments/index.js';
import type { Clock } from '../shared/clock.js';
import type { CommandContext } from '../shared/command-context.js';
import type { Logger } from '../shared/logger.js';
import type { IpnOutbox, NotificationFilter, NotificationView } from './ipn-ports.js';
import { operatorOf, type PaymentOnboarding } from './onboarding.js';

export class IpnNotifications {
  constructor(
    private readonly deps: { outbox: IpnOutbox; onboarding: PaymentOnboarding; clock: Clock; logger: Logger },
  ) {}

  /** A merchant's notifications, newest first (PAYMENT_MERCHANT_NOT_FOUND for an unknown merchant). */
  async list(merchantCode: string, filter: Omit<NotificationFilter, 'merchantCode'>): Promise<NotificationView[]> {
    await this.deps.onboarding.get(merchantCode);
    return this.deps.outbox.list({ ...filter, merchantCode });
  }

  async attempts(merchantCode: string, filter: { transactionId?: string; notificationId?: string; limit: number }) {
    await this.deps.onboarding.get(merchantCode);
    return this.deps.outbox.attempts({ ...filter, merchantCode });
  }

  async resend(context: CommandContext, merchantCode: string, notificationId: string): Promise<NotificationView> {
    await this.deps.onboarding.get(merchantCode);
    const by = operatorOf(context);
    const view = await this.deps.outbox.resend(merchantCode, notificationId, by, this.deps.clock.now());
    if (!view)
      throw paymentsError(
        'IPN_NOTIFICATION_NOT_FOUND',
        `merchant ${merchantCode} has no notification ${notificationId}`,
        {
          notificationId,
        },
      );
    this.deps.logger.info('IPN resend asked', { merchantCode, notificationId, by });
    return view;
  }

  async resendExhausted(context: CommandContext, merchantCode: string): Promise<{ resent: number }> {
    await this.deps.onboarding.get(merchantCode);
    const by = operatorOf(context);
    const resent = await this.deps.outbox.resendExhausted(merchantCode, by, this.deps.clock.now());
    this.deps.logger.info('IPN resend of exhausted notifications asked', { merchantCode, resent, by });
    return { resent };
  }
}
