import { useRef } from 'preact/hooks'
import { env } from '../../kit/env.ts'
import { CheckField, Choices, ColourField, NumberField, TextField } from '../../kit/ui/fields.tsx'
import { PositionPicker } from '../../kit/ui/PositionPicker.tsx'
import { optionRange } from '../../kit/ui/option-range.ts'
import { Slider } from '../../kit/ui/Slider.tsx'
import { WATERMARK_START, type EditSettings } from './settings.ts'

/**
 * A watermark from a logo file or from text the browser draws (see text-overlay.ts), and where
 * and how it is laid: the API's overlay options, their bounds from its schema.
 */
export function Watermark(props: {
  settings: EditSettings
  logo?: File
  onLogo(file: File): void
  set(next: Partial<EditSettings>): void
}) {
  const { t, numbers, data } = env()
  const { settings, set } = props
  const chooser = useRef<HTMLInputElement>(null)
  const positions = data.options.overlayPosition
  const width = optionRange('overlayWidth')
  const opacity = optionRange('overlayOpacity')
  const margin = optionRange('overlayMargin')
  return (
    <fieldset class="watermark">
      <legend>{t('edit.watermark')}</legend>
      <Choices
        class="segmented"
        legend={t('edit.watermarkFrom')}
        name="watermark"
        value={settings.watermark}
        choices={(['none', 'logo', 'text'] as const).map((kind) => ({
          value: kind,
          label: t(`edit.watermarkKind.${kind}`),
        }))}
        onChange={(kind) => set({ watermark: kind as EditSettings['watermark'] })}
      />
      {settings.watermark === 'logo' && (
        <div class="field logo-field">
          <button type="button" onClick={() => chooser.current?.click()}>
            {t('edit.chooseLogo')}
          </button>
          {props.logo && (
            <span class="chosen-file" dir="auto" translate={false}>
              {props.logo.name}
            </span>
          )}
          <input
            ref={chooser}
            type="file"
            data-logo
            hidden
            accept="image/*,.svg"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              if (file) props.onLogo(file)
              event.currentTarget.value = ''
            }}
          />
          <p class="hint">{t('edit.logoHint')}</p>
        </div>
      )}
      {settings.watermark === 'text' && (
        <>
          <TextField
            id="watermark-text"
            label={t('edit.watermarkText')}
            hint={t('edit.watermarkTextHint')}
            maxLength={120}
            value={settings.text}
            onChange={(text) => set({ text })}
          />
          <ColourField
            id="watermark-colour"
            label={t('edit.watermarkColour')}
            value={settings.textColour}
            onChange={(textColour) => set({ textColour })}
          />
        </>
      )}
      {settings.watermark !== 'none' && (
        <>
          <PositionPicker
            name="overlay-position"
            legend={t(settings.overlayTile ? 'edit.tileFrom' : 'edit.watermarkPosition')}
            values={positions?.kind === 'enum' ? positions.values : []}
            value={settings.overlayPosition}
            onChange={(overlayPosition) => set({ overlayPosition })}
          />
          <Slider
            id="overlay-width"
            label={t('edit.watermarkWidth')}
            value={settings.overlayWidth}
            range={width}
            step={0.01}
            neutral={WATERMARK_START.overlayWidth}
            text={(value) => numbers.percent(value)}
            onChange={(overlayWidth) => set({ overlayWidth })}
          />
          <Slider
            id="overlay-opacity"
            label={t('edit.watermarkOpacity')}
            value={settings.overlayOpacity}
            range={opacity}
            step={0.05}
            neutral={WATERMARK_START.overlayOpacity}
            text={(value) => numbers.percent(value)}
            onChange={(overlayOpacity) => set({ overlayOpacity })}
          />
          <NumberField
            id="overlay-margin"
            label={t('edit.watermarkMargin')}
            unit="px"
            range={margin}
            value={settings.overlayMargin}
            onChange={(value) => set({ overlayMargin: value ?? 0 })}
          />
          <CheckField
            id="overlay-tile"
            label={t('edit.watermarkTile')}
            checked={settings.overlayTile}
            onChange={(overlayTile) => set({ overlayTile })}
          />
        </>
      )}
    </fieldset>
  )
}
