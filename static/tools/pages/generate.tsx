import { boot } from '../../kit/boot.tsx'

// Generate's own page is links only: the script just runs the language switcher.
boot()
