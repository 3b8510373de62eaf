/**
 * A JSON file development keeps in DATA_DIR: `dev-secrets.json`, the secrets development generates, and
 * `demo-credentials.json`, what the demo seeds made (docs/operations.md, "Development secrets"). Several processes may
 * start at once on one DATA_DIR (the roles of a development run), and scripts read the files while the service writes
 * them: a file is replaced whole by a rename, never rewritten in place, so a reader sees the old file or the new one,
 * never a part; and it changes only under a lock file, after reading it again, so processes that start together add
 * what one of them generated, and all end with the same.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from './config.js';

export type KeptJson = Record<string, unknown>;

/** How long a lock may be held before it counts as left by a process that died (its holder needs milliseconds). */
const abandonedAfterMs = 10_000;

/** The kept object ({} when there is no file yet). */
export function readKeptJson<T extends KeptJson>(file: string): T {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {} as T;
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ConfigError(`invalid ${path.basename(file)} (${file}): ${(error as Error).message}`);
  }
}

/**
 * The kept object, after `change` (given it as it is) made any change it wants: it returns false when it changed
 * nothing. A change is made under the lock, to the file as read under it, and written by a rename.
 */
export function updateKeptJson<T extends KeptJson>(file: string, change: (kept: T) => boolean): T {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withLock(`${file}.lock`, () => {
    const kept = readKeptJson<T>(file);
    if (change(kept)) replaceFile(file, `${JSON.stringify(kept, null, 2)}\n`);
    return kept;
  });
}

/** Writes `text` to a new file beside `file`, flushed to disk, and renames it over `file` (0600: both hold secrets). */
function replaceFile(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(temporary, 'wx', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(path.dirname(file));
}

/** Makes the rename itself durable; some platforms and file systems cannot sync a directory, which costs only that. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Windows cannot open a directory; the rename is done, only its durability across a power cut is not ensured.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Runs `body` while holding `lock`, a file created exclusively (whoever creates it holds it) naming its holder. A
 * lock left by a process that died (on this host, its pid gone; or older than abandonedAfterMs) is removed.
 */
function withLock<T>(lock: string, body: () => T): T {
  const holder = `${os.hostname()} ${process.pid}`;
  const deadline = Date.now() + 3 * abandonedAfterMs;
  for (;;) {
    try {
      fs.writeFileSync(lock, holder, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (abandoned(lock)) {
      fs.rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new ConfigError(`${lock} is still held; remove it if no process of the service is starting`);
    sleep(5 + Math.random() * 10);
  }
  try {
    return body();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function abandoned(lock: string): boolean {
  let text: string;
  let modified: number;
  try {
    text = fs.readFileSync(lock, 'utf8');
    modified = fs.statSync(lock).mtimeMs;
  } catch {
    return false; // released meanwhile: try again
  }
  if (Date.now() - modified > abandonedAfterMs) return true;
  const [host, pid] = text.split(' ');
  if (host !== os.hostname() || !pid) return false; // another host's, or being written
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Loading secrets is synchronous (the service reads them before anything starts): wait without the event loop. */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
