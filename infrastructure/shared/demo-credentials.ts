/**
 * `<DATA_DIR>/demo-credentials.json`: what the demo seeds made (keys, secrets, ids), each seed under keys of its own,
 * which `npm start` prints and the README's walk-throughs read with jq (docs/operations.md, "Development secrets").
 * Written like dev-secrets.json (kept-json-file.ts): a reader never sees a part of it, and a seed's write keeps the
 * others' keys as they are in the file at that moment.
 */
import path from 'node:path';
import { readKeptJson, updateKeptJson, type KeptJson } from './kept-json-file.js';

const demoCredentialsFile = (dataDir: string) => path.resolve(dataDir, 'demo-credentials.json');

/** The file's object ({} before the first seed). */
export function readDemoCredentials(dataDir: string): KeptJson {
  return readKeptJson(demoCredentialsFile(dataDir));
}

/** Keeps `part`'s keys in the file, leaving every other key as it is there. */
export function keepDemoCredentials(dataDir: string, part: KeptJson): void {
  updateKeptJson(demoCredentialsFile(dataDir), (kept) => {
    Object.assign(kept, part);
    return true;
  });
}
