/**
 * What bench:catalog (bench/catalog.ts) reads off the service while it runs: when each projector caught up with the
 * load, the service's own answer-time histogram, and the machine's speed at the moment.
 */
import { projectors, type Container } from '../container.js';

/**
 * Resolves when every projector's checkpoint is at or past `position`, with the seconds from
 * `started` at which each got there; reports progress every 5 s. Where the bus gives a projector only its context's
 * events (NATS_FILTER_BY_CONTEXT), one that applies none of the `appended` types is given none of them and counts
 * as there at once.
 */
export async function caughtUp(
  c: Container,
  position: string,
  appended: ReadonlySet<string>,
  started: number,
): Promise<Map<string, number>> {
  let reported = Date.now();
  const done = new Map<string, number>();
  const eventTypes = c.projectorEventTypes();
  const given = (projector: string) =>
    !c.config.NATS_URL ||
    !c.config.NATS_FILTER_BY_CONTEXT ||
    [...(eventTypes.get(projector) ?? appended)].some((type) => appended.has(type));
  for (;;) {
    const rows: { projector: string; position: string | null }[] = await c
      .knex('projection_checkpoints')
      .select('projector', 'position');
    const behind = rows.filter((r) => given(r.projector) && (r.position === null || r.position < position));
    for (const r of rows)
      if (!behind.includes(r) && !done.has(r.projector)) done.set(r.projector, (Date.now() - started) / 1000);
    const registered = projectors.every((p) => rows.some((r) => r.projector === p.name));
    if (registered && behind.length === 0) return done;
    if (Date.now() - reported > 5_000) {
      reported = Date.now();
      console.log(
        `  projecting… ${((Date.now() - started) / 1000).toFixed(0)} s, behind: ${behind.map((r) => r.projector).join(', ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Cumulative answer counts of the service's duration histogram, by "route|le" (status 200). */
export type ServerTimes = Map<string, number>;

export async function serverTimes(port: number, operatorToken: string): Promise<ServerTimes> {
  // In production /metrics asks for an operator's token (docs/operations.md).
  const answer = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${operatorToken}` },
  });
  if (!answer.ok) throw new Error(`GET /metrics answered ${answer.status}`);
  const text = await answer.text();
  const times: ServerTimes = new Map();
  for (const match of text.matchAll(
    /^http_request_duration_seconds_bucket\{le="([^"]+)",method="GET",route="([^"]+)",status_code="200"\} (\d+)$/gm,
  ))
    times.set(`${match[2]}|${match[1]}`, Number(match[3]));
  return times;
}

/** A fixed piece of CPU work, timed in ms: how fast the machine is at the moment (on a shared host it varies by minutes). */
export function machineSpeed(): number {
  const started = performance.now();
  let x = 0;
  for (let i = 0; i < 20_000_000; i++) x = (x * 31 + i) % 1_000_003;
  if (x < 0) throw new Error('unreachable');
  return performance.now() - started;
}
