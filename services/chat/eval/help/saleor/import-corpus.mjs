// How services/chat/eval/help/saleor/pages was made (run once; kept to show the conversion, not part of `pnpm eval`):
//   node services/chat/eval/help/saleor/import-corpus.mjs <a clone of github.com/saleor/saleor-docs>
// It reads the Dashboard Manual (docs/dashboard/**/*.md(x)) at the commit below and writes one plain
// Markdown file per page: a small front matter (title, url, source path) then the text, with the
// Docusaurus/MDX parts taken out (imports, JSX tags, admonition fences, images, relative link targets).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'

const COMMIT = 'db9a97db8a35e911ccac0cea3820e307606a4679'
const repo = process.argv[2]
if (repo === undefined) { process.stderr.write('usage: node import-corpus.mjs <saleor-docs clone>\n'); process.exit(2) }
const git = (...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 })
const out = new URL('./pages/', import.meta.url)
mkdirSync(out, { recursive: true })

const paths = git('ls-tree', '-r', '--name-only', COMMIT, 'docs/dashboard').split('\n').filter((p) => /\.mdx?$/.test(p))
for (const path of paths) {
  const raw = git('show', `${COMMIT}:${path}`)
  const fm = /^---\n([\s\S]*?)\n---\n/.exec(raw)
  const meta = Object.fromEntries((fm?.[1] ?? '').split('\n').map((l) => /^(\w+):\s*(.*)$/.exec(l)).filter(Boolean).map((m) => [m[1], m[2].replace(/^["']|["']$/g, '')]))
  let text = raw.slice(fm?.[0].length ?? 0)
  text = text
    .replace(/^import .*$/gm, '')
    .replace(/^\s*<\/?[A-Z][\w]*[^>]*>\s*$/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/^:::\w*[ \t]*/gm, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/\[([^\]]+)\]\((?!https?:)[^)]*\)/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  if (text.length < 300) continue // index cards and one-line introductions
  const rel = path.replace(/^docs\/dashboard\//, '').replace(/\.mdx?$/, '')
  const slug = rel.split('/').slice(0, -1).concat(meta.id ?? rel.split('/').at(-1)).join('/')
  const id = 'saleor-' + rel.replace(/\//g, '-')
  const url = `https://docs.saleor.io/docs/3.x/dashboard/${slug}`
  writeFileSync(new URL(`${id}.md`, out), `---\ntitle: ${meta.title ?? rel}\nurl: ${url}\nsource: ${path}\n---\n\n${text}\n`)
  process.stdout.write(`${id}\t${text.length}\t${url}\n`)
}
