import { useState } from 'preact/hooks'
import { keyGiven, savedKey, saveKey } from '../api/key.ts'
import { env } from '../env.ts'

/** Shown only when this server asks for a key: why, and where it is kept (this tab only). */
export function KeyField({ onSaved }: { onSaved(): void }) {
  const { t, data } = env()
  const [value, setValue] = useState(savedKey() ?? '')
  if (!data.keyRequired) return null
  return (
    <form
      class="key-field"
      onSubmit={(event) => {
        event.preventDefault()
        saveKey(value)
        onSaved()
        keyGiven()
      }}
    >
      <label for="api-key">{t('common.keyLabel')}</label>
      <input
        id="api-key"
        type="password"
        autoComplete="off"
        spellcheck={false}
        dir="ltr"
        value={value}
        aria-describedby="api-key-hint"
        onInput={(e) => {
          // Kept as typed, so a request sent before "Use this key" goes with it too.
          setValue(e.currentTarget.value)
          saveKey(e.currentTarget.value)
        }}
        onChange={keyGiven}
      />
      <button type="submit">{t('common.keySave')}</button>
      <p class="hint" id="api-key-hint">
        {t('common.keyHint')}
      </p>
    </form>
  )
}
