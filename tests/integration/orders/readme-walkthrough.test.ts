/**
 * README.md's "Order view" walk-through, run as written (bash, curl, jq, openssl) against main.ts with the demo seed,
 * as `npm start` runs it: the README's commands stay true. Its address and data directory are this run's; its
 * `sleep` becomes a wait for the read model, which the README's reader gets from a second's pause.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { until } from '../../support/main-process.js';
import { mainSuite } from '../../support/main-suite.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const onPath = (tool: string) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, tool)));

/** The first sh block after the README's "## Order view" heading. */
function walkthrough(): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Order view\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no sh block under "## Order view"');
  return block[1]!;
}

/** The JSON answers curl printed one after another (no separator between them). */
function answers(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>);
  }
  return out;
}

describe('README "Order view": the walk-through as written (bash, curl, main.ts, PostgreSQL)', function () {
  this.timeout(180_000);
  before(function () {
    for (const tool of ['curl', 'jq', 'openssl'])
      if (!onPath(tool)) {
        if (process.env.CI === 'true') throw new Error(`${tool} is not installed (.ci/run installs it)`);
        console.log(`    (skipped: ${tool} is not installed)`);
        this.skip();
      }
  });
  const suite = mainSuite('orders-readme');

  it('signs and sends an order.created with openssl, then reads it back in the portal and as its customer', async () => {
    const service = await suite.start({ PORT: '0', SEED_DEMO: 'true' });
    await until('the order view demo in the banner', () =>
      service.output().includes('Order view demo') ? true : undefined,
    );
    const base = `127.0.0.1:${service.port}`;
    const waitForOrder =
      `until curl -s "${base}/operator/v1/orders?merchant_id=DEMO_AUTO&size=1" -H "Authorization: Bearer $OPS" ` +
      `| grep -q "$ID"; do sleep 0.2; done`;
    const script = walkthrough()
      .replaceAll('localhost:3000', base)
      .replaceAll('.data/', `${suite.dataDir}/`)
      .replace(/^sleep 1\b.*$/m, waitForOrder);
    expect(script).to.include(waitForOrder);
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: root,
      timeout: 60_000,
    });
    const [created, portal, daily, mine, detail, ...rest] = answers(stdout);
    expect(rest, stdout).to.deep.equal([]);
    expect(created, 'the webhook').to.deep.include({ code: 0, message: 'Success' });
    const orderId = (created!.data as { order_id: string; outcome: string }).order_id;
    expect(created!.data).to.include({ event: 'order.created', outcome: 'CREATED' });
    expect(orderId).to.match(/^README-\d+$/);
    const ids = (answer: Record<string, unknown> | undefined) =>
      (answer!.data as { orders: { order_id: string }[] }).orders.map((o) => o.order_id);
    expect(portal, 'the portal').to.include({ code: 'SUCCESS' });
    expect(ids(portal)).to.include(orderId);
    expect(daily, 'the daily statistics').to.include({ code: 'SUCCESS' });
    expect((daily!.data as { days: unknown[] }).days).to.have.length.above(0);
    expect(mine, "the customer's orders").to.include({ code: 0 });
    expect(ids(mine)).to.include(orderId);
    expect(detail, 'the order').to.include({ code: 0 });
    expect(detail!.data).to.include({ order_id: orderId, merchant_id: 'DEMO_AUTO', customer_id: 'demo-user-1' });
    // The metadata exactly as sent, as the README says.
    expect(stdout).to.include('{"station": "HN-07",  "kWh": 42.50}');
  });
});
