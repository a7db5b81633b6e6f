// Which Web Push endpoints are taken: checked when a subscription is registered, and again on
// every connection (the address a host resolves to), so a host that points its name at a private
// address after registering cannot make the server post inside its own network.
import { BlockList, isIP } from 'node:net';
import type { PushConfig } from './settings';

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b:1::', 48], // local-use NAT64
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** True for loopback, private, link-local, CGNAT, multicast and unspecified addresses, v4 or v6. */
export function isPrivateAddress(ip: string): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const version = isIP(bare);
  if (version === 4) return PRIVATE.check(bare, 'ipv4');
  if (version !== 6) return true; // not an address: never taken as a public one
  // An IPv4 address written in IPv6 (::ffff:10.0.0.1, or its hex form) is judged as IPv4.
  const mapped = /^::ffff:(?:0+:)?(.+)$/i.exec(bare);
  if (mapped) {
    const tail = mapped[1];
    if (isIP(tail) === 4) return PRIVATE.check(tail, 'ipv4');
    const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(tail);
    if (hex) {
      const n = (parseInt(hex[1], 16) << 16) | parseInt(hex[2], 16);
      return PRIVATE.check([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'), 'ipv4');
    }
  }
  return PRIVATE.check(bare, 'ipv6');
}

const MAX_ENDPOINT_LENGTH = 2048;

type Policy = Pick<PushConfig, 'allowPrivateEndpoints' | 'endpointHosts'>;

/**
 * Why a Web Push endpoint is refused, or undefined when it is taken. Only what the URL itself
 * says: a host name's addresses are checked when a push connects.
 */
export function endpointProblem(endpoint: string, policy: Policy): string | undefined {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return `must be at most ${MAX_ENDPOINT_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry a user or password';
  if (url.hash !== '') return 'must not carry a fragment';
  const host = url.hostname.toLowerCase();
  const literal = isIP(host.replace(/^\[|\]$/g, '')) !== 0;
  const local = host === 'localhost' || host.endsWith('.localhost') || (literal && isPrivateAddress(host));
  if (local && !policy.allowPrivateEndpoints) return 'must not be on a loopback or private address';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return 'must be an https URL';
  const hosts = policy.endpointHosts;
  if (hosts !== undefined && !hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))) {
    return `must be on one of the push services this server takes (${hosts.join(', ')})`;
  }
  return undefined;
}
