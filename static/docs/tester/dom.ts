/** Elements built from text only: nothing the server or a file name says is parsed as HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string>> = {},
  ...children: (Node | string | undefined)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(props))
    if (value !== undefined) element.setAttribute(name, value)
  for (const child of children) if (child !== undefined) element.append(child)
  return element
}
