/**
 * The settings every benchmark deployment adds to its own (docs/testing.md, "Benchmarks"). A benchmark runs the
 * production build as a **staging** deployment: the sandbox payment providers and identity sandbox named in
 * SANDBOXES_ALLOWED (the load pays through the sandbox wallet and logs in through the sandbox), their pages on a
 * public-looking origin the load never opens; and rate limits set explicitly far above the load it sends, since the
 * defaults are a real deployment's (docs/gateway.md, "Rate limits") and a benchmark measures the service, not them.
 */
export const benchSettings = {
  SANDBOXES_ALLOWED: 'payments,identity',
  PAYMENTS_SANDBOX_BASE_URL: 'https://sandbox.bench.example',
  GATEWAY_RATE_LIMIT_POINTS: '10000000',
  GATEWAY_RATE_LIMIT_WINDOW_SECONDS: '1',
  GATEWAY_USER_RATE_LIMIT_POINTS: '0',
} as const;

/**
 * The egress policy of a benchmark whose IPN receiver runs on this machine over plain http (bench/ipn.ts,
 * bench/payments.ts): production's refuses both, so it is given to buildContainer, never set from configuration.
 */
export const localReceiverEgress = { allowLoopback: true, httpsOnly: false } as const;
