import { describe, expect, test } from 'bun:test'
import { Deployment } from 'kubernetes-models/apps/v1'
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1'
import { Service } from 'kubernetes-models/v1'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.ts'
import { SETTINGS } from '../../src/settings.ts'
import { startApi } from '../helpers/api.ts'
import { ROOT } from '../helpers/paths.ts'

const documents = Bun.YAML.parse(
  await Bun.file(join(ROOT, 'static/examples/kubernetes.yaml')).text(),
) as Record<string, any>[]
const byKind = (kind: string) => documents.find((d) => d.kind === kind)!

const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  Deployment,
  Service,
  HorizontalPodAutoscaler,
  PodDisruptionBudget,
}

const deployment = new Deployment(byKind('Deployment') as any)
const pod = deployment.spec!.template.spec!
const container = pod.containers[0]!
const env = new Map(container.env!.map((e) => [e.name, e]))
const literal = (name: string) => env.get(name)?.value
const GIB = 1024 ** 3

/** Kubernetes quantities as bytes or cores: 2Gi, 512Mi, "2", 500m. */
function quantity(value: string | number): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|m)?$/.exec(String(value))
  if (!match) throw new Error(`unexpected quantity ${value}`)
  const units: Record<string, number> = { Ki: 1024, Mi: 1024 ** 2, Gi: GIB, m: 0.001 }
  return Number(match[1]) * (match[2] ? units[match[2]]! : 1)
}

describe('the Kubernetes example', () => {
  test('every document is valid against the Kubernetes schemas', () => {
    expect(documents.map((d) => d.kind).sort()).toEqual(Object.keys(MODELS).sort())
    for (const document of documents)
      expect(() => new MODELS[document.kind]!(document).validate()).not.toThrow()
  })

  test('sets only real settings, with values imgapi accepts', () => {
    for (const name of env.keys()) {
      expect(
        Object.values(SETTINGS).some((spec) => (spec.env as readonly string[]).includes(name)),
        name,
      ).toBe(true)
    }
    const literals = Object.fromEntries(
      [...env].filter(([, e]) => e.value !== undefined).map(([n, e]) => [n, e.value!]),
    )
    expect(() => loadConfig({ env: literals })).not.toThrow()
  })

  test('probes readiness on /api/health and liveness outside /api, on the container port imgapi listens on', async () => {
    expect(container.readinessProbe!.httpGet!.path).toBe('/api/health')
    const liveness = container.livenessProbe!.httpGet!.path!
    expect(liveness.startsWith('/api')).toBe(false)
    const port = container.ports!.find((p) => p.name === 'http')!
    expect(String(port.containerPort)).toBe(literal('IMGAPI_PORT')!)
    for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe])
      expect(probe!.httpGet!.port).toBe('http')
    // Both paths answer on a real server, and only readiness follows the drain.
    const api = await startApi()
    expect((await api.fetch(liveness)).status).toBe(200)
    expect((await api.fetch('/api/health')).status).toBe(200)
    api.context!.lifecycle.startDraining()
    expect((await api.fetch(liveness)).status).toBe(200)
    expect((await api.fetch('/api/health')).status).toBe(503)
  })

  test('drains: preStop as long as the drain delay, and a grace period that covers preStop, drain and shutdown', () => {
    const config = loadConfig({
      env: {
        IMGAPI_DRAIN_DELAY_MS: literal('IMGAPI_DRAIN_DELAY_MS') ?? '',
        IMGAPI_SHUTDOWN_TIMEOUT_MS: literal('IMGAPI_SHUTDOWN_TIMEOUT_MS') ?? '',
      },
    })
    const preStopSeconds = container.lifecycle!.preStop!.sleep!.seconds
    expect(preStopSeconds * 1000).toBe(config.drainDelayMs)
    expect(pod.terminationGracePeriodSeconds! * 1000).toBeGreaterThanOrEqual(
      preStopSeconds * 1000 + config.drainDelayMs + config.shutdownTimeoutMs,
    )
  })

  test('derives workers and the memory plan from the resources it requests and limits', () => {
    const { requests, limits } = container.resources! as Record<string, Record<string, string>>
    for (const resource of ['cpu', 'memory']) {
      expect(requests![resource], resource).toBeDefined()
      expect(limits![resource], resource).toBeDefined()
    }
    expect(env.get('IMGAPI_WORKERS')!.valueFrom!.resourceFieldRef!.resource).toBe('limits.cpu')
    const memoryLimit = quantity(limits!.memory!)
    const planned = Number(literal('IMGAPI_MEMORY_LIMIT_BYTES'))
    // The budgets come out of the planned memory; the runtime and responses need the rest.
    expect(planned).toBeGreaterThan(0)
    expect(planned + 512 * 1024 ** 2).toBeLessThanOrEqual(memoryLimit)
  })

  test('a Service and an autoscaler that point at this Deployment', () => {
    const labels = deployment.spec!.template.metadata!.labels!
    const service = byKind('Service')
    for (const [key, value] of Object.entries(service.spec.selector))
      expect(labels[key]).toBe(value as string)
    expect(service.spec.ports[0].targetPort).toBe('http')
    const hpa = byKind('HorizontalPodAutoscaler')
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: deployment.metadata!.name,
    })
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2)
  })

  test('keeps secrets in Secrets and the root filesystem read-only, with the native libraries on a volume', () => {
    expect(env.get('IMGAPI_REDIS_URL')!.valueFrom!.secretKeyRef).toBeDefined()
    expect(container.securityContext!.readOnlyRootFilesystem).toBe(true)
    const libDir = literal('IMGAPI_LIB_DIR')!
    expect(container.volumeMounts!.some((m) => libDir.startsWith(m.mountPath + '/') && !m.readOnly)).toBe(
      true,
    )
    const keysFile = literal('IMGAPI_API_KEYS_FILE')!
    expect(container.volumeMounts!.some((m) => keysFile.startsWith(m.mountPath + '/'))).toBe(true)
  })
})
