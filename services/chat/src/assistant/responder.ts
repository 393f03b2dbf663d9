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

/** Several wordings per situation; one is picked from the message so replies vary but stay reproducible. */
const phrasings: Record<Classification | 'noMatch' | 'unavailable', string[]> = {
  unavailable: [
    'Sorry, I cannot look at the catalog right now. Please try again in a moment; if it is urgent, tell me what you need and our team will follow up.',
    'The product search is not answering at the moment, so I cannot check items, prices or stock. Could you ask again in a minute?',
    'I am unable to reach the catalog just now. Give me a moment and ask again, and I will look it up for you.'
  ],
  greeting: [
    'Hello! I can help you find products, compare options, check prices and availability, or sort out an order. What are you looking for today?',
    'Hi there! Ask me about anything in the catalog — sizes, prices, stock — or tell me what you need and I will find it.',
    'Hey! Welcome. Tell me what you have in mind (a product, a budget, a brand) and I will look it up for you.'
  ],
  question: [
    'Here is what I found in the catalog:',
    'Good question — these items match:',
    'These are the closest matches I have:'
  ],
  noMatch: [
    'I could not find anything in the catalog that matches that yet. Could you tell me a little more — a product type, brand or budget? A broader search often helps.',
    'Nothing in the catalog matches that exactly. Try describing it differently, or give me a brand, a category or a price range and I will look again.',
    'I have no catalog results for that right now. If you tell me what it is for, your budget or a brand you like, I can search more broadly.'
  ],
  request: [
    'Sure — I have noted your request: "{m}". I will look into it; if it concerns an order, please keep your order number at hand so we can act on it quickly.',
    'Understood, you would like this: "{m}". I am on it — tell me anything else that matters (size, budget, delivery date) and I will take it into account.',
    'Got it: "{m}". I will take care of that. If you add details such as an order number or the product you mean, it goes faster.'
  ],
  complaint: [
    'I am sorry about this — that is not the experience we want for you. You said: "{m}". I have recorded it; our support team follows up on every report like this, and an order number helps them act faster.',
    'Thank you for telling us, and sorry for the trouble. I have noted: "{m}". Someone from support will pick this up; if it concerns an order, please share its number.',
    'That sounds frustrating, and I apologise. I have logged your report ("{m}") so the team can make it right. Share an order number or photo if you have one.'
  ],
  feedback: [
    'Thank you for the feedback — it really helps us improve. Is there anything else I can help you with?',
    'Thanks for letting us know! I have passed your feedback on. Anything else you are looking for?',
    'Much appreciated — feedback like this shapes what we do next. Can I help you find something?'
  ],
  other: [
    'I am the shop assistant, so I am best at questions about products, prices, availability and orders. What can I help you find?',
    'I may not be the right one for that — I help with the catalog, orders and shopping questions. Is there something you are looking for?',
    'I can help with products, prices, stock and orders. Tell me what you need and I will look it up.'
  ]
}

function pick (options: string[], seed: string): string {
  let h = 0
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0
  return options[h % options.length]!
}

/** Keeps a quoted restatement short and on one line. */
function quote (message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim()
  return flat.length > 140 ? flat.slice(0, 137) + '…' : flat
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
  return { text: pick(phrasings[classification], message).replace('{m}', quote(message)), citations: [] }
}
