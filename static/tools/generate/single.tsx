import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import type { PickedFile } from '../../kit/batch/files.ts'
import { env } from '../../kit/env.ts'
import { DropZone } from '../../kit/ui/DropZone.tsx'
import { KeyField } from '../../kit/ui/KeyField.tsx'
import { useServer } from '../../kit/ui/use-server.ts'
import type { ServerFacts } from '../../kit/api/server.ts'

/**
 * The frame the generators share: one image (dropped, pasted or chosen), the server's facts,
 * the key when one is needed, and the generator's own settings and results beside it.
 */
export function SingleImageTool(props: {
  initialFiles?: readonly PickedFile[]
  children(image: PickedFile | undefined, facts: ServerFacts): ComponentChildren
}) {
  const { t } = env()
  const server = useServer()
  const [image, setImage] = useState<PickedFile | undefined>(props.initialFiles?.[0])
  return (
    <>
      <KeyField onSaved={server.reload} />
      {server.failed && <p class="notice error">{t('common.serverFailed')}</p>}
      <div class={`tool-layout single${image ? ' has-jobs' : ''}`}>
        <div class="tool-drop">
          <DropZone single compact={Boolean(image)} onFiles={(files) => setImage(files[0])} />
          {image && (
            <p class="chosen-file">
              {t('common.chosenFile')}{' '}
              <span dir="auto" translate={false}>
                {image.path}
              </span>
            </p>
          )}
        </div>
        {server.facts ? props.children(image, server.facts) : <p class="hint">{t('common.loading')}</p>}
      </div>
    </>
  )
}

/** The image's name without its extension, as the generated files' prefix. */
export function baseName(path: string): string {
  return (path.split('/').pop() ?? 'image').replace(/\.[^.]*$/, '') || 'image'
}
