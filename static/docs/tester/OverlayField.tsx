import { useRef } from 'preact/hooks'
import { env } from '../../kit/env.ts'

/**
 * The watermark, sent as the file field `overlay`. A button opens the hidden file input, so the
 * control reads in the page's language (a native file input speaks the browser's).
 */
export function OverlayField({ file, onChange }: { file?: File; onChange(file?: File): void }) {
  const { t, numbers } = env()
  const input = useRef<HTMLInputElement>(null)
  return (
    <div class="field overlay-file">
      <label for="tester-overlay">{t('site.tester.overlay')}</label>
      <p class="overlay-choice">
        <button type="button" aria-describedby="tester-overlay-hint" onClick={() => input.current?.click()}>
          {t('common.chooseImage')}
        </button>{' '}
        {file && (
          <span aria-live="polite">
            <bdi translate={false}>{file.name}</bdi>, <bdi>{numbers.bytes(file.size)}</bdi>
          </span>
        )}
      </p>
      <input
        ref={input}
        id="tester-overlay"
        name="overlay"
        type="file"
        accept="image/png,image/webp,image/svg+xml,image/*"
        hidden
        onChange={(event) => onChange(event.currentTarget.files?.[0])}
      />
      <p class="hint" id="tester-overlay-hint">
        {t('site.tester.overlayHint')}
      </p>
    </div>
  )
}
