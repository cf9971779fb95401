import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Where webhooks may go (SSRF protection): https only, and only to hosts all of whose addresses are
 * public. Checked at registration and again when sending, where the check runs inside the connection's
 * own DNS lookup, so the address connected to is the address checked (a name that resolved to a public
 * address at registration, or a moment ago, may resolve to a private one now).
 * WEBHOOK_ALLOW_LOCAL=true (development and tests) turns both rules off.
 */

/** Cloud metadata services, named first: their ranges below would only say "link-local" or "unique-local". */
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

const RANGES: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'reserved'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'reserved'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved or broadcast'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  // IPv4-compatible addresses (deprecated): nothing public lives there.
  ['::', 96, 'ipv6', 'reserved'],
  ['fc00::', 7, 'ipv6', 'unique-local'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const blocked = RANGES.map(([network, prefix, family, reason]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, family, reason };
});

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address. */
function embeddedIpv4(ipv6: string): string | undefined {
  const words = ipv6Words(ipv6);
  if (!words) return undefined;
  const mapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (!mapped && !nat64) return undefined;
  return [words[6] >> 8, words[6] & 0xff, words[7] >> 8, words[7] & 0xff].join('.');
}

/** The eight 16-bit words of an IPv6 address (with :: and a dotted IPv4 tail), or undefined. */
function ipv6Words(address: string): number[] | undefined {
  let text = address.toLowerCase().split('%', 1)[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (!isIPv4(dotted[1])) return undefined;
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((w) => (/^[0-9a-f]{1,4}$/.test(w) ? parseInt(w, 16) : NaN)));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const words = halves.length === 2 ? [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return words.length === 8 && words.every((w) => Number.isInteger(w)) ? words : undefined;
}

/**
 * Why an IP address may not receive webhooks ("loopback", "private", "cloud metadata"...), or
 * undefined when it is a public address.
 */
export function refusedAddress(address: string): string | undefined {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  if (METADATA_ADDRESSES.has(ip)) return 'cloud metadata';
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4 !== undefined) return refusedAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return blocked.find((b) => b.family === type && b.list.check(ip, type))?.reason;
}

/** The URL's host without IPv6 brackets or a trailing dot, lower-case. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

/**
 * What can be said of a target without DNS: its scheme, and its host when that is an IP address or a
 * metadata name. The reason it is refused, or undefined.
 */
export function refusedTarget(url: URL, allowLocal: boolean): string | undefined {
  if (allowLocal) return url.protocol === 'https:' || url.protocol === 'http:' ? undefined : 'only http(s) URLs are allowed';
  if (url.protocol !== 'https:') return 'webhooks are delivered over https only';
  const host = hostOf(url);
  if (METADATA_NAMES.has(host)) return 'the host is a cloud metadata service';
  if (isIP(host)) {
    const reason = refusedAddress(host);
    return reason && `${host} is a ${reason} address; webhooks go to public addresses only`;
  }
  return undefined;
}

/** Why a name's addresses are refused (any one refused refuses the name), or undefined when all are public. */
function refusedAddresses(addresses: readonly LookupAddress[]): string | undefined {
  for (const { address } of addresses) {
    const reason = refusedAddress(address);
    if (reason) return `the host resolves to a ${reason} address; webhooks go to public addresses only`;
  }
  return undefined;
}

export class TargetRefusedError extends Error {
  readonly code = 'EWEBHOOKTARGET';
}

/**
 * The registration check: the rules above, then every address the host resolves to. Resolves to the
 * reason the target is refused, or undefined when it is allowed.
 */
export async function checkTarget(url: URL, allowLocal: boolean): Promise<string | undefined> {
  const early = refusedTarget(url, allowLocal);
  if (early || allowLocal || isIP(hostOf(url))) return early;
  let addresses: LookupAddress[];
  try {
    addresses = await new Promise((resolve, reject) => dnsLookup(hostOf(url), { all: true }, (error, found) => (error ? reject(error) : resolve(found))));
  } catch {
    return 'the host does not resolve';
  }
  return addresses.length === 0 ? 'the host does not resolve' : refusedAddresses(addresses);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) requests that resolves the name, refuses it when any of its addresses is
 * refused, and hands the socket only checked addresses: nothing can change between check and connect.
 * (IP-literal hosts never reach a lookup; refusedTarget() checks them before the request.)
 */
export function guardedLookup(allowLocal: boolean) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const reason = allowLocal ? undefined : METADATA_NAMES.has(hostname.replace(/\.$/, '').toLowerCase()) ? 'the host is a cloud metadata service' : refusedAddresses(addresses);
      if (reason || addresses.length === 0) return callback(new TargetRefusedError(reason ?? 'the host does not resolve'), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
