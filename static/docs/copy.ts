import type { Translate } from '../kit/i18n.ts'

/** Every [data-copy] button copies the code block it sits in, and says so. */
export function setUpCopyButtons(root: ParentNode, t: Translate): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    if (button.dataset.copyReady) continue
    button.dataset.copyReady = 'true'
    const label = button.textContent ?? ''
    button.addEventListener('click', async () => {
      const code = button.closest('.code-block')?.querySelector('code')?.textContent ?? ''
      try {
        await navigator.clipboard.writeText(code)
        button.textContent = t('site.client.copied')
      } catch {
        button.textContent = t('site.client.copyFailed')
      }
      setTimeout(() => (button.textContent = label), 2000)
    })
  }
}
