/** The files context's secrets: its slice of the service's secrets (none; infrastructure/shared/secrets.ts). */
import type { SecretValues } from '../shared/secrets.js';

export const filesSecrets = {};

export type FilesSecrets = SecretValues<typeof filesSecrets>;
