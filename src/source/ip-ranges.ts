import { BlockList, isIPv4, isIPv6 } from 'node:net'

/*
 * Which addresses are on the public internet. Everything else is refused as a URL source
 * unless an allow-list entry names it: loopback, "this network", private and unique-local,
 * link-local (with the cloud metadata addresses 169.254.169.254 and fd00:ec2::254), shared
 * address space (CGNAT), multicast, broadcast, and the reserved, benchmarking and
 * documentation ranges of IANA's special-purpose registries. An IPv6 address that carries an
 * IPv4 one (mapped, compatible, NAT64, 6to4) is judged by the IPv4 address it carries: the
 * form is how imgproxy's CVE-2025-24354 and its kin reached loopback through a check of the
 * outer address only.
 */

const REFUSED_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the host itself
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 the cloud metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 (broadcast) included
]

/** The public IPv6 internet is global unicast, 2000::/3, less these special ranges. */
const REFUSED_V6_IN_GLOBAL: readonly (readonly [string, number])[] = [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID, AMT...
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
]

const refusedV4 = new BlockList()
for (const [net, bits] of REFUSED_V4) refusedV4.addSubnet(net, bits, 'ipv4')
const globalV6 = new BlockList()
globalV6.addSubnet('2000::', 3, 'ipv6')
const refusedV6 = new BlockList()
for (const [net, bits] of REFUSED_V6_IN_GLOBAL) refusedV6.addSubnet(net, bits, 'ipv6')

/** The eight 16-bit groups of an IPv6 address. */
function groups(address: string): number[] {
  const [head = '', tail] = address.toLowerCase().split('::') as [string, string | undefined]
  const parse = (part: string) => {
    if (part === '') return []
    const words = part.split(':')
    const last = words.at(-1)!
    // A dotted IPv4 tail (::ffff:1.2.3.4) is two groups.
    if (last.includes('.')) {
      const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number]
      return [...words.slice(0, -1).map((w) => parseInt(w, 16)), (a << 8) | b, (c << 8) | d]
    }
    return words.map((w) => parseInt(w, 16))
  }
  const front = parse(head)
  if (tail === undefined) return front
  const back = parse(tail)
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back]
}

const v4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`

/** The IPv4 address an IPv6 address carries, in the forms that carry one; else undefined. */
export function embeddedIPv4(address: string): string | undefined {
  const g = groups(address)
  const zeros = (from: number, to: number) => g.slice(from, to).every((w) => w === 0)
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated; :: and ::1 are not)
  if (zeros(0, 5) && (g[5] === 0xffff || (g[5] === 0 && (g[6]! !== 0 || g[7]! > 1))))
    return v4Of(g[6]!, g[7]!)
  // 64:ff9b::a.b.c.d (NAT64, RFC 6052's well-known prefix)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4Of(g[6]!, g[7]!)
  // 2002:aabb:ccdd::/48 (6to4)
  if (g[0] === 0x2002) return v4Of(g[1]!, g[2]!)
  return undefined
}

/** Whether an address (IPv4, or IPv6 without brackets) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !refusedV4.check(address, 'ipv4')
  if (!isIPv6(address)) return false
  const carried = embeddedIPv4(address)
  if (carried !== undefined) return !refusedV4.check(carried, 'ipv4')
  return globalV6.check(address, 'ipv6') && !refusedV6.check(address, 'ipv6')
}
