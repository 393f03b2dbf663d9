import type { Command } from 'commander'
import { plural } from '../plural.js'
import { Progress } from '../progress.js'
import { SETTINGS_SHAPE } from '../settings-shape.js'
import type { CommandContext } from './context.js'

/** A setting on one line: a number, a list, or synonyms as `phone → smartphone, mobile; …`. */
const shown = (value: number | string[] | Record<string, string[]>) => typeof value === 'number'
  ? String(value)
  : Array.isArray(value)
    ? value.join(', ')
    : Object.entries(value).map(([key, alternatives]) => `${key} → ${alternatives.join(', ')}`).join('; ')

export function catalogCommands (program: Command, { env, print }: CommandContext) {
  const catalog = program.command('catalog').description("import items and show or change a project's index settings")

  catalog.command('import')
    .description('add or replace catalog items (progress on stderr)')
    .argument('<projectId>', 'the project')
    .argument('<file>', 'a .json array, .jsonl (or .ndjson) lines, or .csv with a header row')
    .action(async (projectId: string, file: string) => {
      const { importCatalog } = await import('../catalog.js')
      const { searchSettings } = await import('../engine.js')
      const bar = new Progress('importing')
      try {
        const result = await importCatalog(env, searchSettings(env), projectId, file, (done, total) => { bar.update(done, total) })
        print(result, `imported ${plural(result.received, 'item')} into ${projectId} in ${result.seconds}s: ${result.indexed.toLocaleString('en')} new or changed, ${result.unchanged.toLocaleString('en')} unchanged; ${plural(result.total, 'item')} in the catalog`)
      } finally {
        bar.finish()
      }
    })

  catalog.command('settings')
    .description("show the catalog's index settings, or replace them (the catalog is re-indexed)")
    .argument('<projectId>', 'the project')
    .option('--set <file>', `a JSON file: ${SETTINGS_SHAPE}`)
    .action(async (projectId: string, options: { set?: string }) => {
      const { catalogSettings } = await import('../catalog.js')
      const { searchSettings } = await import('../engine.js')
      const settings = await catalogSettings(env, searchSettings(env), projectId, options.set)
      print(settings, Object.entries(settings).map(([k, v]) => `${k}: ${shown(v as number | string[] | Record<string, string[]>) || '(none)'}`).join('\n'))
    })
}
