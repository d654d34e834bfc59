import { describe, expect, test } from 'bun:test'
import { planMemory } from '../src/memory-plan.ts'

const GIB = 1024 ** 3
const MIB = 1024 ** 2
const settings = (
  memoryLimitBytes: number,
  workers: number,
  budgets: { upload?: number; decode?: number } = {},
) => ({
  memoryLimitBytes,
  workers,
  uploadBudgetBytes: budgets.upload ?? 0,
  decodeBudgetBytes: budgets.decode ?? 0,
})

describe('memory plan', () => {
  test('splits the limit: a quarter for uploads, half for decoding', () => {
    const plan = planMemory(settings(4 * GIB, 2))
    expect(plan).toMatchObject({
      limitBytes: 4 * GIB,
      limitSource: 'setting',
      uploadBudgetBytes: GIB,
      decodeBudgetBytes: 2 * GIB,
    })
  })

  test('workers keep freed memory between jobs only where the rest of the limit holds it beside the idle processes', () => {
    expect(planMemory(settings(24 * GIB, 2)).workerKeepBytes).toBe(192 * MIB)
    expect(planMemory(settings(4 * GIB, 2)).workerKeepBytes).toBe(192 * MIB)
    // A 1 GiB container: 256 MiB left beside the budgets, 260 of it for the idle processes.
    expect(planMemory(settings(GIB, 2)).workerKeepBytes).toBe(0)
    // Many workers on a small limit: no room for all of them to keep memory.
    expect(planMemory(settings(4 * GIB, 8)).workerKeepBytes).toBe(0)
    // Budgets set by hand that take the whole limit leave nothing to keep.
    expect(planMemory(settings(4 * GIB, 2, { upload: GIB, decode: 3 * GIB })).workerKeepBytes).toBe(0)
  })
})
