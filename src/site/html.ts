/**
 * HTML built with a tagged template that escapes every interpolated value, so text from
 * anywhere (locales, settings, the request) cannot become markup by accident. Only values
 * already wrapped as Html (the result of another `html` call, or `raw` for trusted markup)
 * are inserted as they are.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value
  if (Array.isArray(value)) return value.map(render).join('')
  if (value === undefined || value === null || value === false) return ''
  return escapeHtml(String(value))
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? ''
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '')
  })
  return new Html(out)
}

/** Markup from a trusted source (our own templates), inserted unescaped. */
export function raw(markup: string): Html {
  return new Html(markup)
}

/** JSON inside a <script type="application/json"> block: `<` escaped so it cannot close the block. */
export function jsonForScript(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/</g, '\\u003c'))
}

/** An attribute, or nothing: `true` gives the bare name, false/undefined/null omit it. */
export function attr(name: string, value: string | number | boolean | undefined | null): Html {
  if (value === undefined || value === null || value === false) return new Html('')
  if (value === true) return new Html(` ${name}`)
  return new Html(` ${name}="${escapeHtml(String(value))}"`)
}
