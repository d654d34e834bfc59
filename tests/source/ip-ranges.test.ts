import { describe, expect, test } from 'bun:test'
import { embeddedIPv4, isPublicAddress } from '../../src/source/ip-ranges.ts'
import { judge, parseAllowList } from '../../src/source/url-policy.ts'

const REFUSED: readonly [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['0.0.0.0', '"this network", which reaches the host itself'],
  ['0.1.2.3', '"this network"'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local: the cloud metadata service'],
  ['169.254.0.1', 'link-local'],
  ['100.64.0.1', 'shared address space (CGNAT)'],
  ['100.127.255.255', 'shared address space (CGNAT)'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.1', 'documentation'],
  ['203.0.113.1', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['::1', 'IPv6 loopback'],
  ['::', 'IPv6 unspecified'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, in hex'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata service'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::a00:1', 'NAT64 of a private address'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:a9fe:a9fe::1', '6to4 of the metadata service'],
  ['fd00:ec2::254', 'the cloud metadata service over IPv6 (unique local)'],
  ['fc00::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['2001::1', 'Teredo'],
  ['3fff::1', 'documentation'],
  ['100::1', 'discard'],
]

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001::200e',
]

describe('which addresses are on the public internet', () => {
  for (const [address, what] of REFUSED)
    test(`${address} (${what}) is not`, () => expect(isPublicAddress(address)).toBe(false))

  test('public IPv4 and global unicast IPv6 are, and IPv6 forms carrying a public IPv4 are judged by it', () => {
    for (const address of PUBLIC) expect([address, isPublicAddress(address)]).toEqual([address, true])
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true)
    expect(isPublicAddress('64:ff9b::808:808')).toBe(true)
    expect(isPublicAddress('2002:808:808::1')).toBe(true)
    expect(embeddedIPv4('64:ff9b::808:808')).toBe('8.8.8.8')
    expect(embeddedIPv4('2606:4700::1111')).toBeUndefined()
  })

  test('what is not an address is not public', () => {
    for (const text of ['', 'localhost', '127.1', '999.1.1.1', '::ffff::1'])
      expect([text, isPublicAddress(text)]).toEqual([text, false])
  })
})

describe('the allow-list and the rule that judges a host', () => {
  const none = parseAllowList('')

  test('public mode: public addresses on 80 and 443 only; the rule is named, never the address', () => {
    expect(judge('public', none, 'example.com', 443, ['93.184.215.14']).allowed).toBe(true)
    const port = judge('public', none, 'example.com', 8080, ['93.184.215.14'])
    expect(port).toEqual({ allowed: false, rule: expect.stringContaining('port 8080') })
    const private_ = judge('public', none, 'intranet.example.com', 443, ['10.1.2.3'])
    expect(private_.allowed).toBe(false)
    expect(private_.rule).not.toContain('10.1.2.3')
  })

  test('every address a name resolves to must be allowed: one refused address refuses the name', () => {
    expect(judge('public', none, 'mixed.example', 443, ['93.184.215.14', '127.0.0.1']).allowed).toBe(false)
  })

  test('an entry lets its hosts in on every port: a CIDR, a name, a suffix (the name and every name under it)', () => {
    const list = parseAllowList('127.0.0.1/32, images.internal, .cdn.example, fd00::/8')
    expect(judge('public', list, '127.0.0.1', 9000, ['127.0.0.1']).allowed).toBe(true)
    expect(judge('public', list, 'images.internal', 8443, ['10.9.9.9']).allowed).toBe(true)
    expect(judge('public', list, 'a.b.cdn.example', 81, ['192.168.0.5']).allowed).toBe(true)
    expect(judge('public', list, 'cdn.example', 81, ['192.168.0.5']).allowed).toBe(true)
    expect(judge('public', list, 'evilcdn.example', 443, ['192.168.0.5']).allowed).toBe(false)
    expect(judge('public', list, 'host', 443, ['fd00::1']).allowed).toBe(true)
    expect(judge('public', list, '127.0.0.2', 80, ['127.0.0.2']).allowed).toBe(false)
  })

  test('allowlist mode: only what the list names, public or not; off: nothing', () => {
    const list = parseAllowList('.example.com')
    expect(judge('allowlist', list, 'img.example.com', 443, ['93.184.215.14']).allowed).toBe(true)
    expect(judge('allowlist', list, 'example.org', 443, ['93.184.215.14']).allowed).toBe(false)
    expect(judge('off', list, 'img.example.com', 443, ['93.184.215.14'])).toEqual({
      allowed: false,
      rule: expect.stringContaining('IMGAPI_URL_SOURCES=off'),
    })
  })

  test('a malformed entry stops the start-up, naming the variable', () => {
    for (const bad of ['10.0.0.0/40', 'exa mple.com', '10.0.0.0/x', 'host/8'])
      expect(() => parseAllowList(bad)).toThrow('IMGAPI_URL_ALLOW')
  })
})
