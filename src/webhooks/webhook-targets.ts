import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import type { Agent } from 'node:http';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/**
 * Where webhooks may go (SSRF protection): https only, and only to hosts all of whose addresses are
 * public. Checked at registration (here, to say why) and again when sending, by request-filtering-agent:
 * the agent checks the address the socket is about to connect to, inside its lookup, so the address
 * connected to is the address checked (a name that resolved to a public address at registration, or a
 * moment ago, may resolve to a private one now). Both read an address's kind from ipaddr.js, the agent's
 * own classifier, so that they agree: an address is public when ipaddr.js calls it `unicast`.
 * WEBHOOK_ALLOW_LOCAL=true (development and tests) turns the rules off.
 */

/** Cloud metadata services, named first: ipaddr.js would only say "link-local" or "unique-local". */
const METADATA_ADDRESSES = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'];
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/**
 * IPv4-compatible IPv6 addresses (::a.b.c.d, deprecated): ipaddr.js calls them unicast, but nothing public
 * lives there. Refused here and by the agent's deny list.
 */
const IPV4_COMPATIBLE = '::/96';

/** ipaddr.js's names for the ranges it knows, as the refusal says them. */
const REASONS: Record<string, string> = {
  unspecified: 'unspecified',
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  multicast: 'multicast',
  broadcast: 'reserved or broadcast',
  reserved: 'reserved',
  deprecatedSiteLocal: 'site-local',
  ipv4Mapped: 'IPv4-mapped',
  rfc6052: 'NAT64',
  rfc6145: 'IPv4-translated',
  '6to4': '6to4',
  teredo: 'Teredo',
  benchmarking: 'reserved',
  amt: 'reserved',
  as112: 'reserved',
  deprecated: 'reserved',
  orchid2: 'reserved',
  droneRemoteIdProtocolEntityTags: 'reserved',
};

/**
 * Why an IP address may not receive webhooks ("loopback", "private", "cloud metadata"...), or
 * undefined when it is a public address. An IPv6 address that carries an IPv4 one (IPv4-mapped, NAT64)
 * is refused as such, and named by the IPv4 address's kind where that is refused too.
 */
export function refusedAddress(address: string): string | undefined {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(ip) === 0) return 'not an IP address';
  if (METADATA_ADDRESSES.includes(ip)) return 'cloud metadata';
  const parsed = ipaddr.parse(ip);
  const range = parsed.range();
  if (range === 'unicast') return parsed.kind() === 'ipv6' && parsed.match(ipaddr.parseCIDR(IPV4_COMPATIBLE)) ? 'reserved' : undefined;
  if (parsed.kind() === 'ipv6' && (range === 'ipv4Mapped' || range === 'rfc6052')) {
    const bytes = (parsed as ipaddr.IPv6).toByteArray().slice(-4);
    const inner = refusedAddress(bytes.join('.'));
    if (inner) return inner;
  }
  return REASONS[range] ?? range;
}

/** The agents that send webhooks: request-filtering-agent's, refusing every address refusedAddress() refuses. */
const AGENT_OPTIONS = { keepAlive: false, denyIPAddressList: [IPV4_COMPATIBLE, ...METADATA_ADDRESSES] };
const AGENTS = {
  guarded: { http: new RequestFilteringHttpAgent(AGENT_OPTIONS), https: new RequestFilteringHttpsAgent(AGENT_OPTIONS) },
  local: {
    http: new RequestFilteringHttpAgent({ keepAlive: false, allowPrivateIPAddress: true, allowMetaIPAddress: true }),
    https: new RequestFilteringHttpsAgent({ keepAlive: false, allowPrivateIPAddress: true, allowMetaIPAddress: true }),
  },
};

/** The agent for a webhook request to `url` (no connection reuse; with allowLocal, no address rule). */
export function webhookAgent(url: URL, allowLocal: boolean): Agent {
  const agents = allowLocal ? AGENTS.local : AGENTS.guarded;
  return url.protocol === 'https:' ? agents.https : agents.http;
}

/**
 * The refusal of an agent's error, in the words of a registration check ("refused: the host resolves to
 * a loopback address; ..."), or undefined for any other error. The agent names the address it refused.
 */
export function refusalOf(error: Error): string | undefined {
  const refused = /^DNS lookup (\S+?)\(family:.*is not allowed/.exec(error.message);
  if (!refused) return undefined;
  return `the host resolves to a ${refusedAddress(refused[1]) ?? 'refused'} address; webhooks go to public addresses only`;
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
