/**
 * A party's IP allowlist (docs/gateway.md, "IP allowlist"): IPv4 and IPv6 addresses and CIDR ranges, matched with
 * node:net's BlockList. An IPv4 address a dual-stack socket reports as IPv4-mapped IPv6 (`::ffff:10.0.0.1`) is
 * matched as the IPv4 address it is.
 */
import { BlockList, isIP } from 'node:net';

type Entry = { kind: 'address'; address: string; family: 'ipv4' | 'ipv6' } | ({ kind: 'subnet' } & Subnet);
type Subnet = { network: string; prefix: number; family: 'ipv4' | 'ipv6' };

const familyOf = (address: string): 'ipv4' | 'ipv6' | undefined => {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : undefined;
};

/** An entry as an operator writes it (`203.0.113.7`, `198.51.100.0/24`, `2001:db8::/32`); undefined if malformed. */
export function parseAllowlistEntry(entry: string): Entry | undefined {
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || !address) return undefined;
  const family = familyOf(address);
  if (!family) return undefined;
  if (prefix === undefined) return { kind: 'address', address, family };
  if (!/^\d{1,3}$/.test(prefix)) return undefined;
  const bits = Number(prefix);
  if (bits > (family === 'ipv4' ? 32 : 128)) return undefined;
  return { kind: 'subnet', network: address, prefix: bits, family };
}

/** The address as the allowlist matches it: an IPv4-mapped IPv6 address as its IPv4 address. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** Matches addresses against the entries (each valid: parseAllowlistEntry checked them when they were set). */
export class IpAllowlist {
  private readonly list = new BlockList();

  constructor(entries: readonly string[]) {
    for (const text of entries) {
      const entry = parseAllowlistEntry(text);
      if (!entry) continue;
      if (entry.kind === 'address') this.list.addAddress(entry.address, entry.family);
      else this.list.addSubnet(entry.network, entry.prefix, entry.family);
    }
  }

  allows(address: string | undefined): boolean {
    if (!address) return false;
    const normalized = normalizeAddress(address);
    const family = familyOf(normalized);
    return family !== undefined && this.list.check(normalized, family);
  }
}
