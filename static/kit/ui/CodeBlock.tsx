import { useState } from 'preact/hooks'
import { env } from '../env.ts'

/**
 * A command to copy: left to right in every language, never translated, with a copy button.
 * `wrap`: a long one-line command wraps to show all of itself instead of scrolling.
 */
export function CodeBlock({ code, label, wrap }: { code: string; label: string; wrap?: boolean }) {
  const { t } = env()
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code)
      setState('copied')
    } catch {
      setState('failed')
    }
    setTimeout(() => setState('idle'), 2000)
  }
  return (
    <div class="code-block" dir="ltr">
      <pre dir="ltr" translate={false} tabIndex={0} aria-label={label} class={wrap ? 'wrap' : undefined}>
        <code>{code}</code>
      </pre>
      <button type="button" class="copy" onClick={copy}>
        {state === 'copied'
          ? t('common.copied')
          : state === 'failed'
            ? t('common.copyFailed')
            : t('common.copy')}
      </button>
    </div>
  )
}
