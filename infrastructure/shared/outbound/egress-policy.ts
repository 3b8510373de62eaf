/**
 * The egress policy (docs/outbound.md): which addresses and URLs the service may send to. Everything the service
 * sends (IPNs, the sandbox providers' callbacks, anything later) goes through the one outbound client
 * (outbound-http.ts), which applies this policy to the URL before connecting and to every address a name resolves
 * to, at connect time (the address checked is the address connected to: no DNS rebinding).
 *
 * Refused: loopback, private, link-local (with the cloud metadata address 169.254.169.254), multicast, unspecified,
 * broadcast and reserved addresses, shared address space (CGNAT), documentation ranges, IPv6 forms embedding one of
 * these (IPv4-mapped, NAT64, 6to4), names of the local machine or network (`localhost`, `*.local`, `*.internal`, a
 * name without a dot); in production, plain http. EGRESS_ALLOW_LOOPBACK (development and tests only) lets loopback
 * addresses and `localhost` names through, for the demo receiver and tests' local receivers.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export interface EgressPolicy {
  /** Loopback addresses and localhost names allowed (EGRESS_ALLOW_LOOPBACK; never in production). */
  allowLoopback: boolean;
  /** Plain http refused (production). */
  httpsOnly: boolean;
}

/** The policy a process runs under: https only in production; loopback as EGRESS_ALLOW_LOOPBACK says. */
export function egressPolicyOf(config: { NODE_ENV: string; EGRESS_ALLOW_LOOPBACK?: boolean }): EgressPolicy {
  const production = config.NODE_ENV === 'production';
  return { allowLoopback: !production && (config.EGRESS_ALLOW_LOOPBACK ?? true), httpsOnly: production };
}

type Kind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'multicast'
  | 'unspecified'
  | 'shared address space (CGNAT)'
  | 'documentation'
  | 'reserved';

const v4Ranges: [string, number, Kind][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  // 240.0.0.0/4 with the limited broadcast 255.255.255.255.
  ['240.0.0.0', 4, 'reserved'],
];

/** Within 2000::/3 (global unicast, the only IPv6 the service sends to), the blocks that are not global. */
const v6Ranges: [string, number, Kind][] = [
  ['2001::', 32, 'reserved'], // Teredo
  ['2001:2::', 48, 'reserved'], // benchmarking
  ['2001:10::', 28, 'reserved'], // ORCHID
  ['2001:20::', 28, 'reserved'], // ORCHIDv2
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
];

const lists = (ranges: [string, number, Kind][], type: 'ipv4' | 'ipv6') =>
  ranges.map(([net, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, type);
    return { list, kind };
  });
const v4 = lists(v4Ranges, 'ipv4');
const v6 = lists(v6Ranges, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** The 16 bytes of an IPv6 address (with or without an embedded dotted IPv4 tail); null if it is not one. */
function ipv6Bytes(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = groups(head);
  const t = groups(tail);
  const words = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const dottedOf = (bytes: number[]) => bytes.join('.');

/**
 * Why the service may not connect to `address` (an IPv4 or IPv6 literal, as resolved), or null when it may. An IPv6
 * address embedding an IPv4 one (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the
 * IPv4 address it reaches.
 */
export function addressRefusal(address: string, policy: EgressPolicy): string | null {
  const kind = addressKind(address.replace(/^\[|\]$/g, ''));
  if (kind === null || (kind === 'loopback' && policy.allowLoopback)) return null;
  return `${address} is a${/^[aeiou]/.test(kind) ? 'n' : ''} ${kind} address`;
}

function addressKind(address: string): Kind | null {
  if (isIPv4(address)) return v4.find((r) => r.list.check(address, 'ipv4'))?.kind ?? null;
  const bytes = ipv6Bytes(address);
  if (!bytes) return 'reserved';
  const zeros = (n: number) => new Array<number>(n).fill(0);
  if (bytes.every((b) => b === 0)) return 'unspecified';
  if (startsWith(bytes, [...zeros(15), 1])) return 'loopback';
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return addressKind(dottedOf(bytes.slice(12)));
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return addressKind(dottedOf(bytes.slice(12)));
  if (startsWith(bytes, [0x20, 0x02])) return addressKind(dottedOf(bytes.slice(2, 6)));
  if (bytes[0] === 0xff) return 'multicast';
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return 'link-local';
  // fc00::/7 (unique local) and the deprecated site-local fec0::/10.
  if ((bytes[0]! & 0xfe) === 0xfc || (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0)) return 'private';
  if (!globalUnicast.check(address, 'ipv6')) return 'reserved';
  return v6.find((r) => r.list.check(address, 'ipv6'))?.kind ?? null;
}

/** Names of the machine itself. */
const loopbackNames = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.localhost$/;
/** Names only a local network resolves (mDNS, private-use and home zones, reverse zones). */
const localNetworkNames = /\.(local|localdomain|internal|intranet|lan|home\.arpa|in-addr\.arpa|ip6\.arpa)$/;

/** Why the service may not send to a host name (before resolving it), or null when it may. */
export function hostNameRefusal(name: string, policy: EgressPolicy): string | null {
  const host = name.toLowerCase().replace(/\.+$/, '');
  if (loopbackNames.test(host)) return policy.allowLoopback ? null : `${name} names the local machine`;
  if (localNetworkNames.test(host)) return `${name} is a local-network name`;
  if (!host.includes('.')) return `${name} is a name without a domain (resolved through local search domains)`;
  return null;
}

/**
 * Why the service may not send to `url`, judged from the URL alone (scheme, credentials, a literal address or a
 * name), or null when it may. The addresses a name resolves to are checked again at connect time (outbound-http.ts).
 */
export function urlRefusal(url: string | URL, policy: EgressPolicy): string | null {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'not an http or https URL';
  if (policy.httpsOnly && parsed.protocol !== 'https:') return 'plain http is refused in production: use https';
  if (parsed.username || parsed.password) return 'a URL carrying credentials';
  // The WHATWG parser has already turned 2130706433, 0x7f.1 or 127.1 into 127.0.0.1, and brackets an IPv6 literal.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return 'a URL without a host';
  if (isIPv4(host) || isIPv6(host)) return addressRefusal(host, policy);
  return hostNameRefusal(host, policy);
}
