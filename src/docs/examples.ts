import { EXAMPLES } from '../../dist/docs/examples.ts'

/**
 * The example programs of static/examples, as built into the generated module by
 * src/build/docs-assets.ts. A missing one is a build mistake, so it fails loudly.
 */
export function exampleSource(name: string): string {
  const source = EXAMPLES[name]
  if (source === undefined) throw new Error(`static/examples/${name} is missing from the docs build`)
  return source
}

/**
 * The commands an example's opening comment tells the reader to run, in order: its lines
 * `//   $ <command>`. The examples page shows them and the tests run them, so they cannot drift.
 */
export function documentedCommands(source: string): string[] {
  return [...source.matchAll(/^\/\/ +\$ (.+)$/gm)].map((match) => match[1]!)
}
