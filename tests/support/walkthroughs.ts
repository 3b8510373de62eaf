/**
 * The docs' walk-throughs run as written (README.md's curl sections, docs/identity.md's login, …): their sh blocks,
 * taken from the markdown itself, run with bash (curl, jq, openssl) against main.ts with the demo seed, as a reader
 * runs them against `npm start`. Only the address (`localhost:3000`), the data directory (`.data/`) and a block's
 * `sleep 1` (which a reader gets from a second's pause, a test from a wait for the read model) are this run's.
 * docs/testing.md, "When a real PostgreSQL or NATS test is still needed".
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort, until, type MainProcess } from './main-process.js';
import type { MainSuite } from './main-suite.js';

export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

const onPath = (tool: string) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, tool)));

/**
 * In a describe: skips its tests when a tool the walk-throughs use is missing, with a notice; fails under CI=true
 * (.ci/run installs them).
 */
export function requireWalkthroughTools(): void {
  before(function () {
    for (const tool of ['curl', 'jq', 'openssl', 'cmp'])
      if (!onPath(tool)) {
        if (process.env.CI === 'true') throw new Error(`${tool} is not installed (.ci/run installs it)`);
        console.log(`    (skipped: ${tool} is not installed)`);
        this.skip();
      }
  });
}

/**
 * The sh blocks of the section under `heading` (a whole line, `## …`) of a markdown file of the repository, in order;
 * the section ends at the next heading of its level or above (outside a code block: a shell comment is no heading).
 */
export function shBlocks(file: string, heading: string): string[] {
  const lines = fs.readFileSync(path.join(repositoryRoot, file), 'utf8').split('\n');
  const level = /^#+ /.exec(heading)?.[0].length ?? 0;
  const start = lines.indexOf(heading);
  if (level === 0 || start < 0) throw new Error(`${file} has no section "${heading}"`);
  const blocks: string[] = [];
  let block: string[] | undefined;
  let fenced = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('```')) {
      fenced = !fenced;
      if (line === '```sh') block = [];
      else if (block) {
        blocks.push(block.map((l) => `${l}\n`).join(''));
        block = undefined;
      }
      continue;
    }
    if (block) block.push(line);
    else if (!fenced && /^#+ /.test(line) && /^#+ /.exec(line)![0].length <= level) break;
  }
  if (blocks.length === 0) throw new Error(`${file} has no sh block under "${heading}"`);
  return blocks;
}

/** The JSON answers curl printed one after another (no separator between them); other output is passed over. */
export function answers(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (depth > 0 && ch === '"') inString = true;
    else if (ch === '{') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' && depth > 0 && --depth === 0)
      out.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>);
  }
  return out;
}

export interface DemoService {
  service: MainProcess;
  /** `127.0.0.1:<port>`, what stands for `localhost:3000`. */
  address: string;
  dataDir: string;
}

/** How much of `dataDir/demo-credentials.json` the demo seed has written: the parts the walk-throughs read. */
export function demoCredentialsWritten(dataDir: string): 'absent' | 'partial' | 'complete' {
  let c: Record<string, unknown>;
  try {
    c = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return 'absent';
  }
  return ['apiKey', 'gateway', 'identity', 'checkout', 'orders', 'payments'].every((part) => c[part] !== undefined)
    ? 'complete'
    : 'partial';
}

/**
 * main.ts with the demo seed, as `npm start` runs it (on free ports rather than 3000 and 4000; `env` added), once
 * /ready answers 200: what the README tells a script to wait for before it reads the demo credentials. Each poll is a
 * connection of its own (with API_WORKERS, the next worker's); `onReady` sees every answer (a test of readiness).
 */
export async function startDemo(
  suite: MainSuite,
  options: {
    env?: Record<string, string>;
    started?: (line: Record<string, unknown>) => boolean;
    onReady?: (answer: { status: number; body: unknown }) => void;
  } = {},
): Promise<DemoService> {
  const service = await suite.start(
    {
      // A port of its own rather than 0: the sandbox pages' address (redirectUrl) names the configured PORT.
      PORT: String(await freePort()),
      SEED_DEMO: 'true',
      PAYMENTS_DEMO_RECEIVER_PORT: String(await freePort()),
      ...options.env,
    },
    { started: options.started },
  );
  const address = `127.0.0.1:${service.port}`;
  await until(
    'GET /ready to answer 200',
    async () => {
      const res = await fetch(`http://${address}/ready`, { headers: { connection: 'close' } });
      const answer = { status: res.status, body: (await res.json()) as unknown };
      options.onReady?.(answer);
      return res.status === 200 ? true : undefined;
    },
    120_000,
  );
  return { service, address, dataDir: suite.dataDir };
}

/**
 * Runs `script` (the blocks of a walk-through, one shell) with `bash -euo pipefail` against the demo service, from the
 * repository's root as a reader does; answers what it printed. `prelude`: what the walk-through continues (another
 * block, whose shell it uses); it runs first and its output is left out. `sleep` (written against localhost:3000, as
 * the docs are) replaces the script's `sleep 1` lines, which it must have.
 */
export async function runWalkthrough(
  demo: DemoService,
  script: string,
  options: { prelude?: string; sleep?: string } = {},
): Promise<string> {
  let run = script;
  if (options.sleep !== undefined) {
    const sleeps = /^sleep 1\b.*$/gm;
    if (!sleeps.test(run)) throw new Error('the walk-through no longer pauses with `sleep 1`');
    run = run.replace(sleeps, options.sleep);
  }
  const marker = '--- the walk-through ---';
  if (options.prelude !== undefined) run = `${options.prelude}\necho '${marker}'\n${run}`;
  run = run.replaceAll('localhost:3000', demo.address).replaceAll('.data/', `${demo.dataDir}/`);
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', run], {
    cwd: repositoryRoot,
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { code?: unknown; signal?: unknown; stdout?: string; stderr?: string }) => {
    // What it printed up to the step that stopped it, rather than the script (mocha would show that).
    throw new Error(
      `the walk-through stopped (exit ${String(error.code ?? error.signal)})\n` +
        `stdout:\n${error.stdout ?? ''}\nstderr:\n${error.stderr ?? ''}`,
    );
  });
  return options.prelude === undefined ? stdout : stdout.slice(stdout.indexOf(`${marker}\n`) + marker.length + 1);
}
