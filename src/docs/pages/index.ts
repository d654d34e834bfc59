import type { PageContent } from '../layout.ts'
import type { Area, PageContext } from '../page-context.ts'
import { examplesPage } from './examples.ts'
import { homePage } from './home.ts'
import { rateLimitsPage } from './rate-limits.ts'
import { referencePage } from './reference.ts'
import { testerPage } from './tester.ts'

/** Each area's page; `satisfies` makes a missing one a compile error. */
export const PAGES = {
  home: homePage,
  tester: testerPage,
  reference: referencePage,
  examples: examplesPage,
  'rate-limits': rateLimitsPage,
} as const satisfies Record<Area, (ctx: PageContext) => PageContent>
