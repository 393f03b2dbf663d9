import type { Citation, Classification } from '@chatsearch/contracts'
import type { RetrievedItem } from './retriever.js'
import type { HandoffReason } from './handoff.js'
import type { KnowledgeAnswer } from './knowledge-answer.js'

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
  /** Words of the message the items found do not hold (the search was sent again without them). */
  unmatched?: string[]
}

/** Why a turn was handed off: the shopper's matter, or a question nothing answers. */
export type HandoffCase = HandoffReason | 'complaint' | 'unanswered'

/**
 * Several wordings per situation; one is picked from the message so replies vary but stay
 * reproducible. None promises an action: nothing in this service acts on orders, records reports or
 * passes messages on, so a reply says what the shopper can do instead (see promises.ts and its test).
 * A handed-off reply says only what is true: the chat is flagged (needs_human) and a team member's
 * answer (POST /admin/chats/{chat_id}/answer) appears in this conversation. That the team sees it is
 * true because the console lists flagged chats first (GET /admin/chats orders them so).
 */
export const phrasings: Record<Exclude<Classification, 'request' | 'complaint'> | 'noMatch' | 'unavailable' | HandoffCase, string[]> = {
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
  action: [
    'I cannot do that from this chat: I can only answer from the shop\'s catalog and help pages, and I cannot act on orders, payments or accounts. I have flagged this conversation for the shop\'s team, who can answer you here.',
    'That is not something I can do here — I can search products and the help pages, but I cannot act on orders or accounts. This conversation is now flagged for the shop\'s team, who can answer you here.',
    'I am not able to act on that from this chat. I have flagged the conversation for the shop\'s team; their answer appears here.'
  ],
  person: [
    'This conversation is now flagged for the shop\'s team, and a team member can answer you here.',
    'I have flagged this conversation for a person on the shop\'s team; their answer appears in this chat.',
    'Flagged for the shop\'s team: a team member can read this conversation and answer you here.'
  ],
  complaint: [
    'I am sorry about this — that is not the experience the shop wants for you. I cannot put it right from this chat, so I have flagged the conversation for the shop\'s team, who can answer you here. An order number helps them if it concerns an order.',
    'Sorry for the trouble, and thank you for telling us. I am not able to fix this from here: the conversation is now flagged for the shop\'s team, who can answer you in this chat (an order number helps).',
    'That sounds frustrating, and I apologise. This chat cannot put it right, so it is now flagged for the shop\'s team; a team member can read it and answer you here.'
  ],
  unanswered: [
    'I could not find the answer to that in the shop\'s catalog or help pages, and I would rather not guess. I have flagged this conversation for the shop\'s team, who can answer you here.',
    'The shop\'s catalog and help pages do not say, so I cannot answer that reliably. This conversation is now flagged for the shop\'s team; a team member can answer you here.',
    'I have nothing in the catalog or the help pages that answers this. Rather than guess, I have flagged the conversation for the shop\'s team, who can answer you in this chat.'
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

/** "Here is what I found", or, when the items leave words of the message out, which ones. */
function intro ({ message, unmatched = [] }: ResponderInput): string {
  if (unmatched.length === 0) return pick(phrasings.question, message)
  const words = unmatched.map((w) => `“${w}”`).join(' or ')
  return `No item mentions ${words}; these come closest:`
}

/**
 * The default responder: composes the reply from the message's class and the retrieved items,
 * without a language model. It names only the items it cites.
 */
export function groundedReply (input: ResponderInput): Reply {
  const { message, classification, items } = input
  // A request that reaches here is for products ("a gift for my dad"): only a person's matter is handed off.
  if (classification === 'question' || classification === 'request' || ((classification === 'other') && (items.length > 0 || input.searchFailed === true))) {
    if (input.searchFailed === true) return { text: pick(phrasings.unavailable, message), citations: [] }
    if (items.length === 0) return { text: pick(phrasings.noMatch, message), citations: [] }
    const used = items.slice(0, 3)
    return {
      text: [intro(input), ...used.map(describe)].join('\n'),
      citations: used.map((i) => ({ source: 'catalog', reference: i.id, confidence: i.score, title: i.title }))
    }
  }
  const templated = classification === 'complaint' ? 'other' : classification
  return { text: pick(phrasings[templated], message), citations: [] }
}

/**
 * The reply of a handed-off turn: what the assistant cannot do, that the chat is flagged, and, when
 * the help pages say something about it, what they say (cited).
 */
export function handoffReply (reason: HandoffCase, message: string, fromKnowledge: KnowledgeAnswer | undefined): Reply {
  const text = pick(phrasings[reason], message)
  if (fromKnowledge === undefined) return { text, citations: [] }
  return { text: `${text}\n\nIn the meantime, this may help. ${fromKnowledge.text}`, citations: fromKnowledge.citations }
}
