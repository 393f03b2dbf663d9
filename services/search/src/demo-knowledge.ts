import { readdir, readFile } from 'node:fs/promises'

const folder = new URL('../catalog/knowledge/', import.meta.url)
const SITE = 'https://demo-shop.example/help'

/**
 * The demo shop's knowledge base (catalog/knowledge): its help pages, each `# Title` then `##`
 * sections, and its question-and-answer pairs, as POST /knowledge/documents takes them.
 */
export async function demoKnowledge (): Promise<unknown[]> {
  const pages = []
  for (const name of (await readdir(folder)).filter((n) => n.endsWith('.md')).sort()) {
    const content = await readFile(new URL(name, folder), 'utf8')
    const id = name.slice(0, -'.md'.length)
    const title = /^# (.+)$/m.exec(content)?.[1] ?? id
    pages.push({ id, title, content, url: `${SITE}/${id}` })
  }
  const faqs = JSON.parse(await readFile(new URL('faqs.json', folder), 'utf8')) as Array<{ id: string }>
  return [...pages, ...faqs.map((faq) => ({ ...faq, url: `${SITE}/faq#${faq.id}` }))]
}
