/**
 * Global positions of both adapters: two non-negative integers, each
 * zero-padded to 20 digits (2^64 has 20), joined by ':'. Fixed width makes
 * plain string comparison agree with log order.
 */
const digits = 20;
const format = /^(\d{20}):(\d{20})$/;

export function formatPosition(major: bigint | string, minor: bigint | string): string {
  return `${String(major).padStart(digits, '0')}:${String(minor).padStart(digits, '0')}`;
}

export function parsePosition(position: string): { major: bigint; minor: bigint } {
  const match = format.exec(position);
  if (!match) throw new RangeError(`not a global position of this store: ${JSON.stringify(position)}`);
  return { major: BigInt(match[1]!), minor: BigInt(match[2]!) };
}
