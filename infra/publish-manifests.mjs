// Gives each workspace package in a `pnpm deploy` output the manifest it is published with: the fields
// under publishConfig (exports of ./dist/*.js) replace the top-level ones, as `pnpm publish` and
// `pnpm pack` do. `pnpm deploy` copies the manifests as they are, whose exports name the TypeScript
// sources that development runs (./src/*.ts). Then checks that every export of every workspace package
// in the output names a JavaScript file that is there, so a package whose publishConfig lags behind its
// exports fails the build instead of the first request.
//   node infra/publish-manifests.mjs <deploy dir>
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const out = process.argv[2]
if (out === undefined) {
  process.stderr.write('usage: node infra/publish-manifests.mjs <deploy dir>\n')
  process.exit(2)
}

/** The deployed package and the workspace packages pnpm injected into its node_modules. */
function workspacePackages () {
  const store = join(out, 'node_modules/.pnpm')
  const injected = readdirSync(store).filter((entry) => entry.startsWith('@chatsearch+')).flatMap((entry) => {
    const scope = join(store, entry, 'node_modules/@chatsearch')
    return readdirSync(scope).map((name) => join(scope, name))
  })
  return [out, ...injected]
}

/** Every file an `exports` value can resolve to. */
function targets (value) {
  if (typeof value === 'string') return [value]
  if (value === null || typeof value !== 'object') return []
  return Object.values(value).flatMap(targets)
}

const problems = []
for (const dir of workspacePackages()) {
  const file = join(dir, 'package.json')
  const manifest = JSON.parse(readFileSync(file, 'utf8'))
  const { publishConfig, ...published } = manifest
  Object.assign(published, publishConfig ?? {})
  // A new file, not the old one rewritten: pnpm may hard-link the deployed manifest to the source
  // package's (from the same store or checkout), and writing through the link would change the source.
  unlinkSync(file)
  writeFileSync(file, JSON.stringify(published, null, 2) + '\n')
  for (const target of targets(published.exports)) {
    if (!/\.js$/.test(target) || !existsSync(join(dir, target))) problems.push(`${published.name}: export ${target} is not a compiled file of the package`)
  }
}
if (problems.length > 0) {
  process.stderr.write(problems.join('\n') + '\n')
  process.exit(1)
}
