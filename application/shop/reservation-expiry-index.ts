import type { EventStore } from '../shared/event-store.js';
import { shopDecoders } from '../../domain/shop/index.js';

const reservationEvents = shopDecoders.reservation;

/**
 * Which reservations are still open and when each expires, read from the
 * event store's global log (from the start on the first use, then from where
 * the last read stopped). Nothing is kept anywhere else, so a restart loses
 * no timer: the log is the schedule. Used only with automatic expiry on.
 */
export class ReservationExpiryIndex {
  private checkpoint: string | null = null;
  private readonly open = new Map<string, number>();
  private reading: Promise<void> | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly pageSize = 1000,
  ) {}

  /** Keys of open reservations whose expiresAt is at or before `now`, as far as the log has been read. */
  async due(now: Date): Promise<string[]> {
    this.reading ??= this.catchUp().finally(() => (this.reading = undefined));
    await this.reading;
    const limit = now.getTime();
    return [...this.open].filter(([, expiresAt]) => expiresAt <= limit).map(([key]) => key);
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const page = await this.store.readAll(this.checkpoint, this.pageSize);
      for (const recorded of page) {
        if (!reservationEvents.has(recorded.type)) continue;
        const event = reservationEvents.decode(recorded);
        if (event.type === 'ShopReservationPlaced')
          this.open.set(event.data.reservationKey, Date.parse(event.data.expiresAt));
        else this.open.delete(event.data.reservationKey);
      }
      if (page.length > 0) this.checkpoint = page[page.length - 1]!.position;
      if (page.length < this.pageSize) return;
    }
  }
}
