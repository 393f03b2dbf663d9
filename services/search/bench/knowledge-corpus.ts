// The knowledge benchmark's help centre: Markdown pages written from a seeded generator, each a
// `# Title` and five `##` sections of about one chunk each (CHUNK_TARGET characters), in the words
// of a shop's help pages, so that the same seed always gives the same pages and queries.

const TOPICS = [
  'shipping', 'delivery', 'returns', 'refunds', 'exchanges', 'warranty', 'repairs', 'payment', 'gift cards',
  'accounts', 'passwords', 'orders', 'tracking', 'invoices', 'discounts', 'loyalty points', 'sizing',
  'care instructions', 'assembly', 'batteries', 'chargers', 'subscriptions', 'pre-orders', 'click and collect',
  'international orders', 'customs', 'packaging', 'recycling', 'price matching', 'student discount'
]
const NOUNS = [
  'order', 'parcel', 'courier', 'label', 'receipt', 'invoice', 'refund', 'voucher', 'card', 'account', 'address',
  'warehouse', 'store', 'item', 'product', 'box', 'charger', 'battery', 'cable', 'strap', 'lens', 'screen',
  'mattress', 'sofa', 'jacket', 'shoe', 'watch', 'phone', 'tablet', 'laptop', 'kettle', 'blender', 'helmet',
  'tent', 'backpack', 'bicycle', 'frame', 'handle', 'zip', 'seam', 'fabric', 'manual', 'serial number', 'bank',
  'tracking number', 'postcode', 'weekend', 'holiday', 'team', 'form', 'email', 'code', 'balance', 'fee'
]
const VERBS = [
  'arrives', 'leaves', 'ships', 'returns', 'covers', 'includes', 'excludes', 'needs', 'takes', 'costs',
  'replaces', 'repairs', 'refunds', 'confirms', 'cancels', 'changes', 'updates', 'protects', 'expires', 'renews'
]
const ADJECTIVES = [
  'standard', 'express', 'free', 'damaged', 'faulty', 'unused', 'original', 'sealed', 'personalised', 'large',
  'fragile', 'heavy', 'international', 'local', 'digital', 'registered', 'second', 'new', 'refurbished', 'missing'
]
const SPANS = ['within two working days', 'in three to five days', 'after 30 days', 'for two years', 'before noon',
  'on the same day', 'within 14 days', 'at no extra cost', 'for a small fee', 'once it is checked']
const HEADINGS = ['How it works', 'What it costs', 'How long it takes', 'What is covered', 'What is not covered',
  'Before you start', 'Step by step', 'If something goes wrong', 'Exceptions', 'Contact and help']

/** mulberry32: small, fast and good enough to spread words evenly. */
function random (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!
const capital = (s: string) => s[0]!.toUpperCase() + s.slice(1)

function sentence (next: () => number, topic: string): string {
  const forms = [
    () => `A ${pick(next, ADJECTIVES)} ${pick(next, NOUNS)} ${pick(next, VERBS)} ${pick(next, SPANS)}.`,
    () => `Your ${pick(next, NOUNS)} for ${topic} ${pick(next, VERBS)} the ${pick(next, ADJECTIVES)} ${pick(next, NOUNS)} ${pick(next, SPANS)}.`,
    () => `If the ${pick(next, NOUNS)} is ${pick(next, ADJECTIVES)}, the ${pick(next, NOUNS)} ${pick(next, VERBS)} ${pick(next, SPANS)}.`,
    () => `${capital(topic)} of a ${pick(next, ADJECTIVES)} ${pick(next, NOUNS)} ${pick(next, VERBS)} your ${pick(next, NOUNS)} and its ${pick(next, NOUNS)}.`,
    () => `We ${pick(next, ['check', 'pack', 'send', 'keep', 'collect'])} every ${pick(next, NOUNS)} ${pick(next, SPANS)}, and the ${pick(next, NOUNS)} ${pick(next, VERBS)} ${pick(next, SPANS)}.`
  ]
  return pick(next, forms)()
}

export interface BenchPage { id: string, title: string, content: string, url: string }

/** `count` help pages, the same for the same seed. */
export function helpPages (count: number, seed: number): BenchPage[] {
  const next = random(seed)
  const pages: BenchPage[] = []
  for (let i = 0; i < count; i++) {
    const topic = TOPICS[i % TOPICS.length]!
    const title = `${capital(topic)}: ${pick(next, ADJECTIVES)} ${pick(next, NOUNS)} (${i + 1})`
    const lines = [`# ${title}`, '']
    for (let s = 0; s < 5; s++) {
      lines.push(`## ${pick(next, HEADINGS)}`, '')
      // Two paragraphs of about 350 characters: one section, one chunk of about CHUNK_TARGET.
      for (let p = 0; p < 2; p++) {
        const sentences: string[] = []
        while (sentences.join(' ').length < 350) sentences.push(sentence(next, topic))
        lines.push(sentences.join(' '), '')
      }
    }
    const id = `page-${String(i + 1).padStart(5, '0')}`
    pages.push({ id, title, content: lines.join('\n'), url: `https://shop.example/help/${id}` })
  }
  return pages
}

/** Queries a shopper would type: a topic and a word or two, or a question. */
export function helpQueries (count: number, seed: number): string[] {
  const next = random(seed)
  const forms = [
    () => `${pick(next, TOPICS)} ${pick(next, NOUNS)}`,
    () => `how long does ${pick(next, TOPICS)} take`,
    () => `${pick(next, ADJECTIVES)} ${pick(next, NOUNS)} ${pick(next, TOPICS)}`,
    () => `can I get a refund for a ${pick(next, ADJECTIVES)} ${pick(next, NOUNS)}`,
    () => `what does the ${pick(next, TOPICS)} cost`
  ]
  return Array.from({ length: count }, () => pick(next, forms)())
}
