import { useEffect, useState } from 'preact/hooks'
import { serverFacts, type ServerFacts } from '../api/server.ts'

/** This server's formats and limits, read once per page from GET /api/formats. */
export function useServer(): { facts?: ServerFacts; failed: boolean; reload(): void } {
  const [facts, setFacts] = useState<ServerFacts>()
  const [failed, setFailed] = useState(false)
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    serverFacts().then(
      (loaded) => {
        setFacts(loaded)
        setFailed(false)
      },
      () => setFailed(true),
    )
  }, [attempt])
  return { facts, failed, reload: () => setAttempt((n) => n + 1) }
}
