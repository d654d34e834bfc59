import { useEffect, useRef, useState } from 'preact/hooks'
import { fromDataTransfer, fromFileList, type PickedFile } from '../batch/files.ts'
import { env } from '../env.ts'

interface Props {
  onFiles(files: PickedFile[]): void
  /** One image at a time (the generators); otherwise files and folders. */
  single?: boolean
  /** Smaller once files are in: the results come first then. */
  compact?: boolean
}

/**
 * The drop zone: drop files or folders, paste with Ctrl+V, or use the buttons (WCAG 2.5.7: a way
 * that needs no dragging). The file inputs stay in the page, hidden; the buttons open them.
 */
export function DropZone({ onFiles, single, compact }: Props) {
  const { t } = env()
  const [dragging, setDragging] = useState(false)
  const files = useRef<HTMLInputElement>(null)
  const folder = useRef<HTMLInputElement>(null)
  const give = (picked: PickedFile[]) => {
    if (picked.length > 0) onFiles(single ? picked.slice(0, 1) : picked)
  }

  useEffect(() => {
    const paste = (event: ClipboardEvent) => {
      const pasted = event.clipboardData?.files
      if (!pasted?.length) return
      event.preventDefault()
      // A pasted screenshot is named image.png by the browser; give it a time instead.
      give(
        fromFileList(pasted).map((p) =>
          p.path === 'image.png' ? { ...p, path: `pasted-${Date.now()}.png` } : p,
        ),
      )
    }
    document.addEventListener('paste', paste)
    return () => document.removeEventListener('paste', paste)
  })

  return (
    <div
      class={`drop${dragging ? ' dragging' : ''}${compact ? ' compact' : ''}`}
      onDragOver={(event) => {
        event.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={async (event) => {
        event.preventDefault()
        setDragging(false)
        if (event.dataTransfer) give(await fromDataTransfer(event.dataTransfer))
      }}
    >
      <svg class="drop-icon" viewBox="0 0 48 48" aria-hidden="true">
        <path d="M8 34v6h32v-6M24 8v22M15 17l9-9 9 9" />
      </svg>
      <p class="drop-title">{single ? t('common.dropOne') : t('common.dropMany')}</p>
      <p class="drop-hint">{t('common.pasteHint')}</p>
      <div class="drop-buttons">
        <button type="button" class="primary" onClick={() => files.current?.click()}>
          {single ? t('common.chooseImage') : t('common.chooseImages')}
        </button>
        {!single && (
          <button type="button" onClick={() => folder.current?.click()}>
            {t('common.chooseFolder')}
          </button>
        )}
      </div>
      <input
        ref={files}
        type="file"
        data-files
        multiple={!single}
        accept="image/*,.avif,.heic,.heif,.jxl,.svg,.svgz,.tif,.tiff"
        hidden
        onChange={(event) => {
          const input = event.currentTarget
          if (input.files) give(fromFileList(input.files))
          input.value = ''
        }}
      />
      {!single && (
        <input
          ref={folder}
          type="file"
          data-folder
          hidden
          {...{ webkitdirectory: true }}
          onChange={(event) => {
            const input = event.currentTarget
            if (input.files) give(fromFileList(input.files))
            input.value = ''
          }}
        />
      )}
    </div>
  )
}
