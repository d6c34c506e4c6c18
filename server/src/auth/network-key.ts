// The key a per-client limit counts under: the address for IPv4, the /64 for IPv6. One IPv6
// customer is handed a whole /64 (RFC 6177), so rotating addresses inside it must not buy a fresh
// set of tries. An IPv4 address written as IPv6 (::ffff:a.b.c.d) counts as that IPv4 address.
import net from 'node:net';

/** The first four groups of an IPv6 address, each as four hex digits. */
function prefix64(address: string): string | undefined {
  const [head = '', tail] = address.split('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0) return undefined;
  const all = tail === undefined ? left : [...left, ...Array<string>(missing).fill('0'), ...right];
  if (all.length < 4) return undefined;
  return all
    .slice(0, 4)
    .map((g) => g.padStart(4, '0'))
    .join(':');
}

export function networkKey(ip: string): string {
  const address = ip.split('%')[0]!.toLowerCase(); // a zone id names the link, not the host
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  if (net.isIPv4(address)) return address;
  if (!net.isIPv6(address)) return ip;
  const prefix = prefix64(address);
  return prefix === undefined ? address : `${prefix}::/64`;
}
