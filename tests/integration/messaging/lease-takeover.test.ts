/**
 * A lease whose holder was killed -9 on this host is taken at once by its successor, not at expiry (issue 11, item 4;
 * docs/projections.md, "Leases"); a live holder, one of this very process, or one of another host keeps it until it
 * expires.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { expect } from 'chai';
import { migrate } from '../../../infrastructure/shared/migrations/index.js';
import { defaultLeaseOwner, Lease, ownerIsGone } from '../../../infrastructure/shared/messaging/lease.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

const ttlMs = 60_000;

describe('Lease: taking over from a holder that is gone', function () {
  this.timeout(60_000);
  let db: TestDatabase;

  beforeEach(async () => {
    db = await createTestDatabase();
    await migrate(db.knex);
  });
  afterEach(async () => db.drop());

  /** A real process that takes the lease with its default owner id, reports it, then waits to be killed. */
  async function holderProcess(name: string) {
    const script = `
      import { createKnex } from './infrastructure/shared/database.js';
      import { defaultLeaseOwner, Lease } from './infrastructure/shared/messaging/lease.js';
      const lease = new Lease(createKnex(process.env.DB_URL, 2), process.env.LEASE_NAME, defaultLeaseOwner(), ${ttlMs});
      if (!(await lease.acquire())) process.exit(3);
      console.log('HELD ' + lease.ownerId);
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../../..', import.meta.url).pathname,
      env: { PATH: process.env.PATH, DB_URL: db.url, LEASE_NAME: name },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const owner = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const held = /HELD (\S+)/.exec(out);
        if (held) resolve(held[1]!);
      });
      child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { child, owner, exited };
  }

  it('is taken at once after its holder was killed -9, and not while the holder lives', async () => {
    const holder = await holderProcess('projector-audit');
    const successor = new Lease(db.knex, 'projector-audit', defaultLeaseOwner(), ttlMs);
    expect(ownerIsGone(holder.owner)).to.equal(false);
    expect(await successor.acquire()).to.equal(false);

    holder.child.kill('SIGKILL');
    await holder.exited;
    const started = Date.now();
    expect(ownerIsGone(holder.owner)).to.equal(true);
    expect(await successor.acquire()).to.equal(true);
    expect(Date.now() - started).to.be.lessThan(ttlMs / 10);
    expect(successor.takenFromGone).to.equal(holder.owner);
    const row = await db.knex('leases').where({ name: 'projector-audit' }).first();
    expect(row.owner_id).to.equal(successor.ownerId);
  });

  it('is not taken from another lease of this process, from another host, or from a chosen owner id', async () => {
    for (const owner of [defaultLeaseOwner(), `another-host-${process.pid + 1}-0123abcd`, 'relay-on-node-7']) {
      const name = `lease-${owner}`;
      expect(await new Lease(db.knex, name, owner, ttlMs).acquire()).to.equal(true);
      expect(ownerIsGone(owner)).to.equal(false);
      expect(await new Lease(db.knex, name, defaultLeaseOwner(), ttlMs).acquire()).to.equal(false);
    }
  });

  it('is taken from an earlier life of this pid on this host (a restarted container: process 1 again)', async () => {
    const earlier = `${os.hostname()}-${process.pid}-0badf00d`;
    expect(await new Lease(db.knex, 'relay', earlier, ttlMs).acquire()).to.equal(true);
    expect(ownerIsGone(earlier)).to.equal(true);
    expect(await new Lease(db.knex, 'relay', defaultLeaseOwner(), ttlMs).acquire()).to.equal(true);
  });
});
