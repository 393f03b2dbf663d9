import type { Citation, Classification } from '@chatsearch/contracts'
import type { RetrievedItem } from './retriever.js'

export interface Reply {
  text: string
  citations: Citation[]
}

export interface ResponderInput {
  message: string
  classification: Classification
  /** The relevant items, best first. */
  items: RetrievedItem[]
  /** The catalog could not be searched: say so rather than claim nothing matches. */
  searchFailed?: boolean
}

/**
 * Several wordings per situation; one is picked from the message so replies vary but stay
 * reproducible. None promises an action: nothing in this service acts on orders, records reports or
 * passes messages on, so a reply says what the shopper can do instead (see promises.ts and its test).
 */
export const phrasings: Record<Classification | 'noMatch' | 'unavailable', string[]> = {
  unavailable: [
    'Sorry, I cannot look at the catalog right now. Please try again in a moment.',
    'The product search is not answering at the moment, so I cannot check items, prices or stock. Could you ask again in a minute?',
    'I am unable to reach the catalog just now. Please ask again in a moment.'
  ],
  greeting: [
    'Hello! I can help you find products, compare options, and check prices and availability. What are you looking for today?',
    'Hi there! Ask me about anything in the catalog — sizes, prices, stock — or tell me what you need and I will search for it.',
    'Hey! Welcome. Tell me what you have in mind (a product, a budget, a brand) and I will search the catalog for it.'
  ],
  question: [
    'Here is what I found in the catalog:',
    'Good question — these items match:',
    'These are the closest matches I have:'
  ],
  noMatch: [
    'I could not find anything in the catalog that matches that yet. Could you tell me a little more — a product type, brand or budget? A broader search often helps.',
    'Nothing in the catalog matches that exactly. Try describing it differently, or give me a brand, a category or a price range and I will search again.',
    'I have no catalog results for that right now. If you tell me what it is for, your budget or a brand you like, I can search more broadly.'
  ],
  request: [
    'I cannot do that from this chat: I can only search the catalog and answer from it. For an order, a refund or your account, please contact the shop\'s team directly.',
    'That is not something I can do here — I can search products, prices and stock, but I cannot act on orders or accounts. The shop\'s team can help with that if you contact them directly.',
    'I am not able to act on that from this chat. I can look up products, prices and availability; for anything about an order or an account, please reach the shop\'s team directly.'
  ],
  complaint: [
    'I am sorry about this — that is not the experience we want for you. I cannot resolve it from this chat, as I can only search the catalog; please contact the shop\'s team directly, with your order number if it concerns an order.',
    'Sorry for the trouble, and thank you for telling us. I am not able to fix this from here; the shop\'s team can, if you contact them directly (an order number helps).',
    'That sounds frustrating, and I apologise. This chat can only search the catalog, so it cannot put this right; please reach the shop\'s team directly, with an order number or photo if you have one.'
  ],
  feedback: [
    'Thank you for the feedback. Is there anything else I can help you find?',
    'Thanks for letting us know! Anything else you are looking for?',
    'Much appreciated. Can I help you find something?'
  ],
  other: [
    'I am the shop assistant, so I am best at questions about products, prices and availability. What can I help you find?',
    'I may not be the right one for that — I help with the catalog and shopping questions. Is there something you are looking for?',
    'I can help with products, prices and stock. Tell me what you need and I will search for it.'
  ]
}

function pick (options: string[], seed: string): string {
  let h = 0
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0
  return options[h % options.length]!
}

const describe = (item: RetrievedItem) => {
  const price = item.price === undefined ? '' : ` — $${item.price.toFixed(2)}`
  const stock = item.in_stock === undefined ? '' : item.in_stock ? ', in stock' : ', currently out of stock'
  return `• ${item.title}${price}${stock}`
}

/**
 * The default responder: composes the reply from the message's class and the retrieved items,
 * without a language model. It names only the items it cites.
 */
export function groundedReply (input: ResponderInput): Reply {
  const { message, classification, items } = input
  if (classification === 'question' || ((classification === 'request' || classification === 'other') && (items.length > 0 || input.searchFailed === true))) {
    if (input.searchFailed === true) return { text: pick(phrasings.unavailable, message), citations: [] }
    if (items.length === 0) return { text: pick(phrasings.noMatch, message), citations: [] }
    const used = items.slice(0, 3)
    return {
      text: [pick(phrasings.question, message), ...used.map(describe)].join('\n'),
      citations: used.map((i) => ({ source: 'catalog', reference: i.id, confidence: i.score, title: i.title }))
    }
  }
  return { text: pick(phrasings[classification], message), citations: [] }
}
