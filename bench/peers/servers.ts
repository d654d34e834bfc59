/*
 * Both servers, started once for the whole run (through bench/common/server.ts, so that their CPU time
 * is counted as ours by the noise witness) and stopped at the end, whatever happened.
 */
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { startServer, type ServerHandle } from '../common/server.ts'

export interface IpxFacts {
  readonly node: string
  readonly ipx: string
  readonly sharp: string
  readonly libvips: string
  readonly libvipsThreadsPerJob: number
  readonly libuvThreads: number
}

export interface Peers {
  readonly imgapi: ServerHandle
  readonly ipx: ServerHandle
  readonly ipxFacts: IpxFacts
  /** imgapi's IMGAPI_WORKERS: one per CPU, the CPUs IPX's Node process can use. */
  readonly imgapiWorkers: number
  stop(): Promise<void>
}

/** Node, not Bun: IPX is a Node library, and its users run it on Node. */
const NODE = 'node'

export async function startPeers(repoRoot: string, corpusDir: string): Promise<Peers> {
  const imgapiWorkers = availableParallelism()
  const imgapi = await startServer({
    repoRoot,
    env: { IMGAPI_WORKERS: String(imgapiWorkers), IMGAPI_LOG_LEVEL: 'error' },
  })
  let ipx: ServerHandle | undefined
  try {
    ipx = await startServer({
      repoRoot,
      command: [NODE, resolve(repoRoot, 'bench/peers/ipx-server.mjs'), corpusDir],
      readyPath: '/health',
    })
    const ipxFacts = (await (await fetch(`${ipx.baseUrl}/versions`)).json()) as IpxFacts
    const both = ipx
    return { imgapi, ipx, ipxFacts, imgapiWorkers, stop: () => stopBoth(imgapi, both) }
  } catch (error) {
    await stopBoth(imgapi, ipx)
    throw error
  }
}

async function stopBoth(imgapi: ServerHandle, ipx: ServerHandle | undefined): Promise<void> {
  await Promise.all([imgapi.stop(), ipx?.stop()])
}
