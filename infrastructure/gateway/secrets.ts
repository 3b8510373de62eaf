/** The gateway's secrets: none of its own (client secrets are issued per party and stored hashed; docs/gateway.md). */
import type { SecretValues } from '../shared/secrets.js';

export const gatewaySecrets = {};

export type GatewaySecrets = SecretValues<typeof gatewaySecrets>;
