import { tokenParts } from '../../../src/docs/tokens.ts'

/**
 * Translated text drawn in the browser, with each identifier in it (auto-high, X-Quality,
 * GET /api/formats) kept whole and left to right, as the server does for the pages it renders.
 */
export function Prose({ text }: { text: string }) {
  return (
    <>
      {tokenParts(text).map((part, i) =>
        part.token ? (
          <span key={i} class="token" dir="ltr" translate={false}>
            {part.text}
          </span>
        ) : (
          part.text
        ),
      )}
    </>
  )
}
