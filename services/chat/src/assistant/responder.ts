import type { Citation, Classification } from '@chatsearch/contracts'
import type { HandoffCase, Reply, RetrievedItem } from './types.js'

export interface ResponderInput {
  message: string
  /** The items that answer, in the order to show them. */
  items: Array<{ item: RetrievedItem, relevance: number }>
}

/**
 * Several wordings per situation; one is picked from the message so replies vary but stay
 * reproducible. None promises an action: nothing in this service acts on orders, records reports or
 * passes messages on, so a reply says what the shopper can do instead (see promises.ts and its test).
 * A handed-off reply says only what is true: the chat is flagged (needs_human) and a team member's
 * answer (POST /admin/chats/{chat_id}/answer) appears in this conversation. That the team sees it is
 * true because the console lists flagged chats first (GET /admin/chats orders them so).
 */
export const phrasings: Record<Exclude<Classification, 'request' | 'complaint' | 'question'> | 'found' | 'noMatch' | 'unavailable' | 'offerPerson' | HandoffCase, string[]> = {
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
  found: [
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
  // Each names a request that handoff.ts hands off ("talk to a person"): the flag it speaks of is then set.
  offerPerson: [
    'If this does not solve it, ask to talk to a person and I will flag this conversation for the shop\'s team, who can answer you here.',
    'Still stuck? Ask to talk to a person and I will flag this conversation for the shop\'s team; their answer appears here.',
    'If that does not help, just ask to talk to a person: I will flag the conversation for the shop\'s team, who answer here.'
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

/** The items that answer, named with their price and stock, each cited; none of them is described beyond what the catalog holds. */
export function itemsReply ({ message, items }: ResponderInput): Reply {
  const used = items.slice(0, 3)
  return {
    text: [pick(phrasings.found, message), ...used.map(({ item }) => describe(item))].join('\n'),
    citations: used.map(({ item, relevance }): Citation => ({ source: 'catalog', reference: item.id, confidence: relevance, title: item.title }))
  }
}

/** A reply from a template: small talk, "nothing matches", the catalog out of reach. */
export function templateReply (kind: 'greeting' | 'feedback' | 'other' | 'noMatch' | 'unavailable', message: string): Reply {
  return { text: pick(phrasings[kind], message), citations: [] }
}

/** An answer from the help pages to a problem the customer described, then the offer of a person. */
export function withOfferOfPerson (answer: Reply, message: string): Reply {
  return { text: `${answer.text}\n\n${pick(phrasings.offerPerson, message)}`, citations: answer.citations }
}

/**
 * The reply of a handed-off turn: what the assistant cannot do, that the chat is flagged, and, when
 * the help pages say something about it, what they say (cited).
 */
export function handoffReply (reason: HandoffCase, message: string, fromKnowledge: Reply | undefined): Reply {
  const text = pick(phrasings[reason], message)
  if (fromKnowledge === undefined) return { text, citations: [] }
  return { text: `${text}\n\nIn the meantime, this may help. ${fromKnowledge.text}`, citations: fromKnowledge.citations }
}
