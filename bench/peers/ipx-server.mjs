/*
 * IPX, the peer bench/peers/peers.ts measures imgapi against, as its README serves it: createIPX over
 * files on disk, behind Node's own http server. Run with Node (not Bun), as IPX users do:
 *   PORT=3001 HOST=127.0.0.1 node bench/peers/ipx-server.mjs <directory>
 * Two paths of our own sit in front, never on a measured request: /health answers once the
 * server listens, /versions says what is running (IPX carries its own sharp).
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { createIPX, createIPXNodeServer, ipxFSStorage } from 'ipx'

const [dir] = process.argv.slice(2)
if (!dir) throw new Error('usage: node bench/peers/ipx-server.mjs <directory>')

// The sharp IPX imports, which is its own (node_modules/ipx/node_modules/sharp), not imgapi's.
const fromIpx = createRequire(import.meta.resolve('ipx'))
const sharp = fromIpx('sharp')
const ipxPackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('ipx')), 'utf8'))

const versions = {
  node: process.versions.node,
  ipx: ipxPackage.version,
  sharp: sharp.versions.sharp,
  libvips: sharp.versions.vips,
  libvipsThreadsPerJob: sharp.concurrency(),
  libuvThreads: Number(process.env.UV_THREADPOOL_SIZE || 4),
  cpus: availableParallelism(),
}

const ipx = createIPXNodeServer(createIPX({ storage: ipxFSStorage({ dir }) }))

const server = createServer((request, response) => {
  if (request.url === '/health') return void response.end('ok')
  if (request.url === '/versions') {
    response.setHeader('content-type', 'application/json')
    return void response.end(JSON.stringify(versions))
  }
  return ipx(request, response)
})

server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))
