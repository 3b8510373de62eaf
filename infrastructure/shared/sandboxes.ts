/**
 * The sandboxes production refuses (docs/operations.md, "Sandboxes in production"): the sandbox payment providers with
 * their hosted pages (a test card and OTP 123456 complete any payment) and the identity sandbox (whoever reaches it
 * logs in as any user). Outside production they are on unless switched off. With NODE_ENV=production a sandbox runs
 * only when SANDBOXES_ALLOWED names it: a staging deployment runs the production build with it set; a live one never
 * sets it, and a sandbox configured there stops the start with a message naming the setting.
 */
import { z, type RefinementCtx } from 'zod';
import { commaList } from './comma-list.js';

export const sandboxNames = ['payments', 'identity'] as const;
export type SandboxName = (typeof sandboxNames)[number];

/** Each sandbox, what it lets anyone do, and the settings that configure it (any one set asks for it). */
const sandboxes: Record<SandboxName, { what: string; settings: readonly string[] }> = {
  payments: {
    what: 'the sandbox payment providers and their pages (a test card completes any payment)',
    settings: ['PAYMENTS_SANDBOX', 'PAYMENTS_SANDBOX_BASE_URL', 'PAYMENTS_SANDBOX_CALLBACK_BASE_URL'],
  },
  identity: {
    what: 'the identity sandbox (whoever reaches it logs in as any user)',
    settings: ['IDENTITY_SANDBOX'],
  },
};

/** SANDBOXES_ALLOWED: the sandboxes a production (staging) deployment runs, comma separated; ignored elsewhere. */
export const sandboxesAllowedSetting = commaList(z.enum(sandboxNames)).default('');

interface SandboxSettings {
  NODE_ENV: string;
  SANDBOXES_ALLOWED: readonly SandboxName[];
}

/** Whether `name` runs: its own switch (IDENTITY_SANDBOX, PAYMENTS_SANDBOX) if set, else on outside production and, in production, when SANDBOXES_ALLOWED names it. */
export const sandboxOn = (config: SandboxSettings, name: SandboxName, own: boolean | undefined): boolean =>
  own ?? (config.NODE_ENV !== 'production' || config.SANDBOXES_ALLOWED.includes(name));

/**
 * In production: a sandbox configured but not named in SANDBOXES_ALLOWED is refused, naming the setting. A payment
 * sandbox that runs needs PAYMENTS_SANDBOX_BASE_URL, its pages' public https origin (the default is localhost).
 */
export function sandboxRules(config: Record<string, unknown>, ctx: RefinementCtx): void {
  if (config.NODE_ENV !== 'production') return;
  const allowed = (config.SANDBOXES_ALLOWED ?? []) as readonly SandboxName[];
  for (const name of sandboxNames) {
    if (allowed.includes(name)) continue;
    for (const setting of sandboxes[name].settings) {
      const value = config[setting];
      if (value === undefined || value === false) continue;
      ctx.addIssue({
        code: 'custom',
        path: [setting],
        message: `configures ${sandboxes[name].what}, refused in production; a staging deployment names it in SANDBOXES_ALLOWED=${name}`,
      });
    }
  }
  if (allowed.includes('payments') && config.PAYMENTS_SANDBOX !== false)
    publicUrlRule(config, 'PAYMENTS_SANDBOX_BASE_URL', ctx, { required: true });
}

/** Host names that never reach this service from a payer's browser or a partner. */
const localHost = /^(localhost|.*\.localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1?\]|\[::ffff:127\.[\d.]+\])$/i;

/** In production: `setting` (a URL the outside world is sent to) must be https on a public host; required if asked. */
export function publicUrlRule(
  config: Record<string, unknown>,
  setting: string,
  ctx: RefinementCtx,
  options: { required?: boolean } = {},
): void {
  if (config.NODE_ENV !== 'production') return;
  const value = config[setting];
  if (typeof value !== 'string') {
    if (options.required)
      ctx.addIssue({
        code: 'custom',
        path: [setting],
        message: 'must be set in production: the public https origin payers and partners reach (no localhost default)',
      });
    return;
  }
  const url = new URL(value);
  if (url.protocol !== 'https:' || localHost.test(url.hostname))
    ctx.addIssue({
      code: 'custom',
      path: [setting],
      message: 'must be a public https URL in production (not http, not localhost or a loopback address)',
    });
}
