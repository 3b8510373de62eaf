/**
 * A benchmark's deployment, as production runs it (NODE_ENV=production, fresh secrets, the bench gateway
 * environment): with NATS_URL, the relay and the projectors run in a process of their own (ROLES) on a JetStream
 * stream of the run's own, so the benchmark's process serves the api alone; without NATS every role runs in the
 * benchmark's process on the in-process bus. stop() ends the roles' process and deletes the run's stream.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig, loadSecrets, type Config, type Secrets } from '../container.js';
import { startMain } from '../tests/support/main-process.js';
import { benchSecretsEnv } from './bench-secrets.js';
import { benchGatewayEnvironment } from './gateway-party.js';
import { benchSettings } from './bench-settings.js';
import { deleteStream } from './nats-streams.js';

export interface BenchDeployment {
  config: Config;
  secrets: Secrets;
  /** The relay and projectors run in another process, behind NATS. */
  nats: boolean;
  /** A tag unique to the run. */
  tag: string;
  /** The roles' process (relay and projectors), when they run in one of their own. */
  rolesPid?: number;
  stop(): Promise<void>;
}

export async function startBenchDeployment(
  databaseUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<BenchDeployment> {
  const natsUrl = process.env.NATS_URL;
  const tag = randomBytes(4).toString('hex');
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    GATEWAY_ENVIRONMENT: benchGatewayEnvironment,
    ...benchSettings,
    ...(natsUrl && {
      NATS_URL: natsUrl,
      NATS_STREAM: `BENCH_${tag}`,
      NATS_SUBJECT_PREFIX: `bench${tag}`,
      // NATS_FILTER_BY_CONTEXT=false measures the fan-out without the filter (docs/projections.md, "Buses").
      ...(process.env.NATS_FILTER_BY_CONTEXT && { NATS_FILTER_BY_CONTEXT: process.env.NATS_FILTER_BY_CONTEXT }),
      ...(process.env.NATS_FETCH_LINGER_MS && { NATS_FETCH_LINGER_MS: process.env.NATS_FETCH_LINGER_MS }),
    }),
    ...benchSecretsEnv(),
    ...extraEnv,
  };
  const config = loadConfig({ ...env, ROLES: natsUrl ? 'api' : 'api,relay,projector' });
  const secrets = loadSecrets(config, env);
  const roles = natsUrl ? await startMain({ ...env, ROLES: 'relay,projector', HEALTH_PORT: '0' }) : undefined;
  // A failed run must not leave the roles' process behind.
  process.once('exit', () => roles?.child.kill('SIGKILL'));
  return {
    config,
    secrets,
    nats: natsUrl !== undefined,
    tag,
    ...(roles?.child.pid !== undefined && { rolesPid: roles.child.pid }),
    async stop() {
      roles?.child.kill('SIGTERM');
      await roles?.exited;
      if (natsUrl) await deleteStream(natsUrl, `BENCH_${tag}`);
    },
  };
}
