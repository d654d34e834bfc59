/** Addresses in commands become the one this page was loaded from, as the reader reaches it. */
export function showOrigin(root: ParentNode): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-origin]'))
    element.textContent = location.origin
}
