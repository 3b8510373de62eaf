import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import winston from 'winston';
import { createLogger } from '../../../infrastructure/shared/logger.js';

/** The JSON lines a logger writes while `act` runs. */
async function lines(act: (logger: winston.Logger) => void): Promise<Record<string, unknown>[]> {
  const logger = createLogger('info');
  const out = new PassThrough();
  const written: string[] = [];
  out.on('data', (chunk: Buffer) => written.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  logger.clear();
  logger.add(new winston.transports.Stream({ stream: out }));
  act(logger);
  await new Promise((resolve) => setImmediate(resolve));
  return written.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('logger', () => {
  it('keeps an error given as metadata: its name, message, stack, code and cause (it used to log "err":{})', async () => {
    const cause = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    const error = new Error('projection failed', { cause });
    const [line] = await lines((logger) => logger.error('projection gave up', { err: error, projector: 'p' }));
    expect(line).to.include({ level: 'error', message: 'projection gave up', projector: 'p' });
    const err = line!.err as Record<string, unknown>;
    expect(err).to.include({ name: 'Error', message: 'projection failed' });
    expect(err.stack).to.be.a('string').and.include('projection failed');
    expect(err.cause).to.include({ message: 'connection refused', code: 'ECONNREFUSED' });
  });

  it('keeps an error under any key, and leaves other metadata as it was', async () => {
    const [line] = await lines((logger) =>
      logger.warn('retrying', { error: new TypeError('bad'), attempt: 2, nested: { a: 1 } }),
    );
    expect(line!.error).to.include({ name: 'TypeError', message: 'bad' });
    expect(line).to.deep.include({ attempt: 2, nested: { a: 1 } });
  });
});
