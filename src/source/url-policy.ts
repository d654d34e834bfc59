import { BlockList, isIP, isIPv4 } from 'node:net'
import { ConfigError } from '../setting-values.ts'
import { isPublicAddress } from './ip-ranges.ts'

/*
 * Who may be fetched as a URL source (IMGAPI_URL_SOURCES, IMGAPI_URL_ALLOW). `public`, the
 * default: addresses on the public internet, and whatever the allow-list names besides (an
 * internal image server); `allowlist`: only what the list names; `off`: nothing. An entry is a
 * host name (`images.example.com`), a suffix that takes the name and every name under it
 * (`.example.com`), or a CIDR (`10.0.0.0/8`, `127.0.0.1/32`, `fd00::/8`). An entry allows every
 * port of what it names; elsewhere only 80 and 443. Every address a name resolves to must be
 * allowed, or none is fetched.
 */
export type UrlSourcesMode = 'off' | 'public' | 'allowlist'

export interface AllowList {
  readonly names: ReadonlySet<string>
  readonly suffixes: readonly string[]
  readonly networks: BlockList
  readonly empty: boolean
}

const DEFAULT_PORTS = new Set([80, 443])

/** A host name as the URL parser leaves it: lower case, IDN as punycode, no trailing dot. */
export function canonicalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  return bare.toLowerCase().replace(/\.$/, '')
}

export function parseAllowList(setting: string): AllowList {
  const names = new Set<string>()
  const suffixes: string[] = []
  const networks = new BlockList()
  let entries = 0
  for (const raw of setting.split(',')) {
    const entry = raw.trim()
    if (!entry) continue
    entries++
    const [address, bits] = entry.split('/') as [string, string | undefined]
    const family = isIP(canonicalHost(address))
    if (family) {
      const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits)
      if (!/^\d{1,3}$/.test(bits ?? '0') || prefix > (family === 4 ? 32 : 128))
        throw new ConfigError(
          `IMGAPI_URL_ALLOW: expected a CIDR such as 10.0.0.0/8, received ${JSON.stringify(entry)}`,
        )
      networks.addSubnet(canonicalHost(address), prefix, family === 4 ? 'ipv4' : 'ipv6')
      continue
    }
    const suffix = entry.startsWith('.')
    let host: string
    try {
      host = canonicalHost(new URL(`http://${suffix ? entry.slice(1) : entry}/`).hostname)
    } catch {
      host = ''
    }
    if (!host || bits !== undefined || isIP(host))
      throw new ConfigError(
        `IMGAPI_URL_ALLOW: expected host names, suffixes such as .example.com, or CIDRs, comma-separated; received ${JSON.stringify(entry)}`,
      )
    if (suffix) suffixes.push(host)
    else names.add(host)
  }
  return { names, suffixes, networks, empty: entries === 0 }
}

export interface Verdict {
  readonly allowed: boolean
  /** The rule that refused it, for the caller: never the address it resolved to. */
  readonly rule?: string
}

function namedByEntry(list: AllowList, host: string): boolean {
  return list.names.has(host) || list.suffixes.some((s) => host === s || host.endsWith(`.${s}`))
}

function inNetworks(list: AllowList, address: string): boolean {
  return list.networks.check(address, isIPv4(address) ? 'ipv4' : 'ipv6')
}

/**
 * Whether a URL whose host resolved to `addresses` may be fetched on `port`. Judged on every
 * address, by the rule that names it: an allow-list entry (the host by name, or each address
 * in a listed network), else, in `public` mode, the public internet on ports 80 and 443.
 */
export function judge(
  mode: UrlSourcesMode,
  list: AllowList,
  host: string,
  port: number,
  addresses: readonly string[],
): Verdict {
  if (mode === 'off')
    return { allowed: false, rule: 'URL sources are off on this server (IMGAPI_URL_SOURCES=off)' }
  if (addresses.length === 0) return { allowed: false, rule: 'its host resolves to no address' }
  if (namedByEntry(list, host)) return { allowed: true }
  if (addresses.every((address) => inNetworks(list, address))) return { allowed: true }
  if (mode === 'allowlist')
    return { allowed: false, rule: 'its host is not in the allow-list (IMGAPI_URL_SOURCES=allowlist)' }
  if (!addresses.every((address) => inNetworks(list, address) || isPublicAddress(address)))
    return {
      allowed: false,
      rule: 'its host is, or resolves to, an address that is not on the public internet (loopback, private, link-local, reserved or the like), and no IMGAPI_URL_ALLOW entry names it',
    }
  if (!DEFAULT_PORTS.has(port))
    return {
      allowed: false,
      rule: `port ${port}: only 80 and 443 are allowed for hosts no IMGAPI_URL_ALLOW entry names`,
    }
  return { allowed: true }
}
