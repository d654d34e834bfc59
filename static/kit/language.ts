/**
 * The language switcher: choosing a language goes to the same area in it and remembers the
 * choice in a cookie, which the server reads when a later page has no ?lang=. Without script
 * the switcher is a plain GET form and still works; the choice is then not remembered.
 */
const COOKIE = 'imgapi_lang'
const YEAR_SECONDS = 365 * 24 * 3600

function remember(language: string): void {
  document.cookie = `${COOKIE}=${encodeURIComponent(language)}; path=/; max-age=${YEAR_SECONDS}; SameSite=Lax`
}

export function setUpLanguageSwitcher(current: string): void {
  if (new URLSearchParams(location.search).has('lang')) remember(current)
  const select = document.querySelector<HTMLSelectElement>('[data-language-switcher]')
  if (!select?.form) return
  select.form.classList.add('enhanced')
  select.addEventListener('change', () => {
    remember(select.value)
    select.form!.requestSubmit()
  })
}
