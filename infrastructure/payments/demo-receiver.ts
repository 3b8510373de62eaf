/**
 * The sample partner receiver of the demo merchant (examples/ipn-receiver; docs/ipn.md, "A receiver"), run by the
 * payment hub's demo seed: it verifies each IPN and logs it, so a newcomer sees notifications arrive. Not started with
 * port 0, or when the port is taken. It binds its port before the demo merchant is seeded, so the merchant's postback
 * URL names it only when it is listening; until `serve` gives it the merchant's secretKey it answers 503 (an IPN then
 * is retried).
 */
import express from 'express';
import type { Logger } from '../../application/shared/logger.js';
import { ipnWebhookApp } from '../../examples/ipn-receiver/webhook.js';
import type { DemoSeedDeps } from '../shared/demo-seed.js';

export async function startDemoReceiver(port: number, deps: Pick<DemoSeedDeps<unknown>, 'listen' | 'logger'>) {
  if (port === 0) return undefined;
  const logger: Logger = deps.logger;
  let receiver: express.Express | undefined;
  const front = express().use((req, res, next) =>
    receiver ? receiver(req, res, next) : res.status(503).json({ status: 'FAILED', message: 'starting' }),
  );
  const running = await deps.listen(front, port).catch((err: unknown) => {
    logger.warn('demo IPN receiver not started (is the port taken?); the demo merchant gets no postback', {
      port,
      err,
    });
    return undefined;
  });
  if (!running) return undefined;
  return {
    port: running.port,
    serve(secretKey: string) {
      receiver = ipnWebhookApp({
        secretKey,
        onReceived: ({ payload, answer }) =>
          logger.info('IPN received by the demo receiver', {
            orderId: payload.orderId,
            transactionId: payload.transactionId,
            transactionType: payload.transactionType,
            status: payload.status,
            processedAt: payload.processedAt,
            answered: answer.status,
          }),
      });
    },
  };
}
