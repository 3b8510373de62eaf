/**
 * A context's demo data for `npm start` (README, "Try it"; context-module.ts, `demo`): given its services, it seeds
 * what a newcomer needs to call its interfaces and answers the lines of the banner main.ts prints. main.ts runs the
 * seeds one after the other, in the order of `contexts`; each keeps what it made under keys of its own in
 * `<DATA_DIR>/demo-credentials.json` (demo-credentials.ts), so a later start finds it again.
 */
import type { Express } from 'express';
import type { Logger } from '../../application/shared/logger.js';
import type { Config } from './config.js';

/** A gateway client pair (client_id, client_secret) a demo caller sends with each request. */
export interface DemoClient {
  clientId: string;
  clientSecret: string;
}

/** A server a seed started (the payment hub's sample IPN receiver), stopped with the process. */
export interface DemoServer {
  port: number;
  close(timeoutMs: number): Promise<void>;
}

/** What main.ts hands each seed. `C` is the context's own configuration slice (with the shared settings). */
export interface DemoSeedDeps<C> {
  config: Config & C;
  logger: Logger;
  /** Where this very process serves the interfaces (`http://127.0.0.1:<port>`); undefined when it serves none. */
  servedAt: string | undefined;
  /** The base URL the banner shows (`http://localhost:<port>`). */
  shownAt: string;
  /**
   * The demo gateway client of an interface (a `GatewayInterface` name), from a seed earlier in the list that made
   * one (the gateway's: one party per interface); undefined when none did.
   */
  client(interfaceName: string): DemoClient | undefined;
  /** Serves `app` on 127.0.0.1:`port` (0: any free port) until the process stops; refuses when the port is taken. */
  listen(app: Express, port: number): Promise<DemoServer>;
}

export interface DemoSeeded {
  /** The banner's lines about this context: a heading, then indented credentials and addresses. */
  lines: string[];
  /** Demo gateway clients it made, by interface name (the gateway's seed), for later seeds' `client`. */
  clients?: Readonly<Record<string, DemoClient>>;
}

export type DemoSeed<Services, C> = (services: Services, deps: DemoSeedDeps<C>) => Promise<DemoSeeded>;
