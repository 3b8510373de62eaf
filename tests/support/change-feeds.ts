import { expect } from 'chai';
import { PostgresChangeFeed } from '../../infrastructure/shared/read-model-changes.js';
import { eventually } from './eventually.js';

/** Change feeds on a test database, each stopped by stopAll (call it after each test). */
export function changeFeeds(databaseUrl: () => string) {
  let made: PostgresChangeFeed[] = [];
  return {
    /** A feed that is not started yet; it reconnects after `retryDelayMs`. */
    feed(retryDelayMs = 50): PostgresChangeFeed {
      const feed = new PostgresChangeFeed({ databaseUrl: databaseUrl(), retryDelayMs });
      made.push(feed);
      return feed;
    },
    async connected(feed: PostgresChangeFeed): Promise<void> {
      await eventually(() => expect(feed.connected).to.equal(true), 5_000);
    },
    async stopAll(): Promise<void> {
      await Promise.all(made.map((f) => f.stop()));
      made = [];
    },
  };
}
