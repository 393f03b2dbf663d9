/**
 * The assistant's word lists and intent patterns, in one place (English, and greetings and handoff
 * phrases in the languages shoppers most often write in; general shop and help-centre language,
 * never the terms of one shop), and the words a catalog query is tidied of. The files that
 * read a message import their words and patterns from here and keep only the logic that applies
 * them (handoff.ts, question-cues.ts, references.ts, understand.ts, language.ts, constraints/). What stays in
 * constraints/price.ts and constraints/signals.ts is the grammar of amounts and bounds ("under $50",
 * "rated 4 stars or more", "in stock ones"): parsers of numbers, not lists of words.
 */

/**
 * Words that say nothing of what a message is about: function words, question words, the verbs
 * of asking and verbs too common to tell two sentences apart ("take", "make"). What is left ("shipping", "take", "long") is compared with a source's words to see
 * whether it answers the message.
 */
export const STOP = new Set(`a an the and or but of to for with that this these those which who whom whose what when where why
how is are was were be been being am do does did done have has had having i me my mine we us our you your yours it its
they them their he she his her in on at by from so just very really can could will would shall should may might must if
as than also there here too else not no any some all each every about into out up down over off again then once only own
same such more most other please thanks thank hi hello hey get got tell know want need like let much many take took
taken make made go goes went come came put use used keep give say see look find after`.split(/\s+/))
/** English function words (of STOP) that are also words of another common language ("in", "so", "was" are German too): no sign of English (language.ts). */
export const SHARED_FUNCTION_WORDS = new Set(['a', 'an', 'am', 'also', 'at', 'by', 'come', 'do', 'her', 'i', 'in', 'is', 'me', 'my', 'no', 'on', 'or', 'see', 'so', 'to', 'was', 'will'])

/** Small numbers as digits: "two years" meets "2-year". */
export const NUMBERS: Record<string, string> = { one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10', thirty: '30' }

/**
 * Words shops and shoppers use for the same thing, folded to one: "do you deliver to Canada?" is
 * answered by "we do not ship outside the United States".
 */
export const SAME: Record<string, string> = Object.fromEntries(Object.entries({
  ship: 'deliver delivery delivered delivering shipping shipped shipment',
  refund: 'refunded',
  return: 'returned returning',
  charge: 'charged',
  pay: 'paid paying payment',
  order: 'purchase purchased ordered',
  price: 'cost costs priced',
  multiple: 'lots several numerous',
  person: 'people persons'
}).flatMap(([word, forms]) => forms.split(' ').map((form) => [form, word])))

// Price words: one list each, and every pattern about a lower or higher price built from them (below).

/** Asking for a lower price than what was shown ("cheaper?", "any less expensive ones?"). */
export const CHEAPER_TERMS = ['cheaper', 'less expensive', 'lower-priced', 'lower price', 'more affordable']
/** Asking for the lowest price among the matches ("the cheapest …", "the least expensive one"). */
export const CHEAPEST_TERMS = ['cheapest', 'least expensive', 'lowest-priced', 'most affordable']
/** Asking for a higher price ("which is pricier?"), or the highest ("the priciest"). */
export const PRICIER_TERMS = ['pricier', 'more expensive', 'dearer']
const PRICIEST_TERMS = ['priciest', 'most expensive']
/** Terms (plain words, nothing to escape) as the alternation of a pattern: a space or a hyphen between their words matches either, or several. */
export const termsSource = (terms: readonly string[]): string => terms.map((t) => t.split(/[ -]/).join(String.raw`[\s-]+`)).join('|')

/** The shopper asks for products: to buy, see, be recommended or given something. */
export const PRODUCT_SEEKING = new RegExp([
  '\\b(?:do|does) (?:you|the shop|your shop|u) (?:\\w+ )?(?:have|sell|carry|stock|offer)\\b', '\\b(?:looking|searching|shopping) for\\b',
  '\\bshow me\\b', '\\brecommend', '\\bsuggest', '\\bi (?:need|want) (?:a|an|some|something|new)\\b', '\\bshould i (?:get|buy|choose)\\b',
  '\\bwhat (?:should|can|could) i (?:get|buy)\\b', '\\bsomething (?:to|for|that)\\b', '\\b(?:gift|present)s?\\b', '\\bbuy\\b',
  '\\bwhich [\\w-]+(?: [\\w-]+)? (?:is|are) (?:the )?(?:best|good|better)\\b', "\\bwhat(?:'s| is) (?:a|the) (?:good|best)\\b",
  String.raw`\b(?:${termsSource([...CHEAPEST_TERMS, ...PRICIEST_TERMS])}|best[- ]rated|top[- ]rated)\b`
].join('|'), 'i')

/**
 * What may come before the words of a question and changes nothing of it: a greeting, "ok", "so",
 * "and", "but", "please" ("hi, can I …", "so how do I …"). The source of a pattern's start.
 */
export const OPENING = String.raw`^(?:(?:hi|hello|hey|ok|okay|so|and|but|please)\W+)*`

/**
 * Greetings in the languages shoppers most often write in: a message that is only a greeting is one,
 * whatever the classifier (trained on English) made of it.
 */
export const GREETING = new RegExp('^(?:(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening|day)|greetings|yo|' +
  'hola|buen(?:os|as) (?:d[ií]as|tardes|noches)|buenas|saludos|bonjour|bonsoir|salut|coucou|hallo|guten (?:morgen|tag|abend)|' +
  'servus|moin|gr[üu](?:ß|ss) (?:gott|dich|sie)|ciao|salve|buongiorno|buonasera|ol[áa]|oi|bom dia|boa (?:tarde|noite)|hoi|goedemorgen|' +
  'goedemiddag|dag|hej|hei|god morgen|tere|cze[śs][ćc]|dzie[ńn] dobry|ahoj|merhaba|selam|salam|namaste|privet|привет|' +
  'здравствуйте|добрый день|γεια σου|γεια σας|你好|您好|こんにちは|안녕하세요|안녕|שלום|مرحبا|السلام عليكم|xin chào|สวัสดี)' +
  '(?:[\\s,!.]+(?:there|all|everyone|team|folks|a todos|à tous|zusammen|tutti))?[\\s,!.?¡¿😀-🙏👋]*)+$', 'iu')

/**
 * Words of a grievance about the shop or its service: a complaint that is handed off, as opposed to
 * a problem with a product described so that the help pages can answer it ("it won't turn on").
 */
export const GRIEVANCE = /\b(?:unacceptable|ridiculous|terrible|awful|horrible|worst|disgusting|outrageous|furious|angry|annoyed|frustrat\w*|disappoint\w*|fed up|sick of|rude|scam|rip[- ]?off|never again|waste of (?:money|time)|still (?:waiting|nothing|not)|been waiting|no one|nobody (?:has|answers|replied)|not happy|unhappy|complain\w*)\b/i

/** Words that speak to the shop or of an order, its delivery or its payment. */
const ABOUT_THE_SHOP_WORDS = /\b(?:you|your|yours|u|orders?|ordered|parcels?|packages?|deliver(?:y|ies|ed)|shipments?|shipped|couriers?|payments?|paid|refunds?|invoices?|receipts?)\b/i
/** Ways of asking for help that address the shop without saying anything of what it did ("can you help?", "thank you"). */
const ASKING = /\b(?:(?:can|could|would|will) (?:you|u)(?: please)?|do (?:you|u) know|if (?:you|u) (?:can|could)|thank (?:you|u))\b/gi

/**
 * A message about what the shop did or does: it speaks to the shop ("You charged me twice", "your
 * courier left it in the rain") or of an order, its delivery or its payment ("my package arrived
 * damaged"). A statement of that kind that the help pages do not answer is a complaint, not a
 * problem of the customer's own to ask the team about. Asking for help is not one: "my laptop won't
 * turn on, can you help?" speaks to the shop, not of it.
 */
export const aboutTheShop = (message: string): boolean => ABOUT_THE_SHOP_WORDS.test(message.replace(ASKING, ' '))

/**
 * Something of the customer's that fails ("my earbuds won't charge anymore", "our printer keeps
 * jamming"): a request for help with what they have, not for products. General English failure
 * words after "my" or "our"; a message that also asks for products (PRODUCT_SEEKING) is not one.
 */
export const MALFUNCTION = /\b(?:my|our)\b.*\b(?:won'?t|wont|doesn'?t|does not|didn'?t|did not|isn'?t|is not|aren'?t|are not|stopped|keeps|kept|broke|broken|not working|no longer|anymore|any more|fails?|failed|failing|crash\w*|freez\w*|froze|cracked|faulty|dead)\b/i

/**
 * A question of whether something may or can be done ("can I return earphones I opened?", "can I use
 * the blender without the lid?"): the rules or the help pages answer it, a list of items does not.
 * Asking to get, buy, order, purchase, find, see, have or afford something asks for products. A
 * greeting or "so, …" before it changes nothing, as in question-cues.ts.
 */
export const ASKS_WHETHER_ONE_MAY = new RegExp(String.raw`${OPENING}(?:can|could|may) (?:i|we)\b(?! (?:get|buy|order|purchase|find|see|have|afford)\b)`, 'i')

/** A question, by its opening word or its mark. */
export const INTERROGATIVE = /^(?:what|when|where|which|who|why|how|do|does|did|is|are|was|were|can|could|will|would|should|have|has|any)\b|\?\s*$/i

// The classifier's corrections (understand.ts) read the message lower-cased.

/** A message that opens as a question (understand.ts: a "request" worded so is a question). Unlike INTERROGATIVE, no "?" alone and no "can you". */
export const QUESTION_OPENING = /^(?:what|what's|which|how|do|does|did|is|are|any|where|when|who|why|(?:can|could|may|should) (?:i|we))\b/
/** Asking for something to be done ("can you …", "recommend …"): a request, however it is worded. */
export const POLITE_REQUEST = /^(?:please )?(?:can|could|would|will) you\b|\b(?:recommend|suggest)\b/
/** The customer states a need or a search of their own ("I need …", "we're looking for …"). */
export const NEED = /\b(?:i|we)(?:'m|'re| am| are)?(?: really| just| also)? (?:need|want|would like|looking)\b|\b(?:i|we)'d like\b/
/** "find …", "show me …", "list …": a search for products. */
export const SHOPPING_IMPERATIVE = /^(?:please )?(?:find|list|show|search(?: for)?)\b/
/** Praise and thanks: a message of them with nothing wrong in it is feedback. */
export const PRAISE = /\b(?:great|brilliant|love|loved|lovely|perfect|excellent|amazing|fantastic|awesome|wonderful|superb|happy with|delighted|thank you|thanks)\b/
/**
 * Anything said to be wrong, missing or not as it should be: wider than GRIEVANCE ("not", "but",
 * "again"), it keeps praise with a fault in it ("Great, the kettle arrived broken.") a complaint.
 */
export const NEGATIVE_WORDS = /\b(?:not|never|no longer|broken|broke|late|missing|wrong|damaged|worst|terrible|awful|refund|disappointed|unacceptable|still|supposed|again|but)\b|n't\b|\?\?/

/**
 * A message that leans on the turn before: it points back ("that", "it", "those") or goes on from it
 * ("and …", "what about …"). It is retrieved with the earlier message's subject.
 */
export const LEANS_ON_PREVIOUS = /^(?:and|but|also|so|then|ok(?:ay)?|what about|how about|and what about|same for)\b|\b(?:that|it|this|those|these|them|they|one|ones|older|newer|other|others|instead|too|either)\b/i
/** A message that leans on the turn before is short; a longer one stands on its own. */
export const FOLLOW_UP_MAX_WORDS = 12

/** "cheaper?", "any less expensive ones?": below the cheapest item just shown. */
export const CHEAPER = new RegExp(String.raw`\b(?:${termsSource(CHEAPER_TERMS)})\b`, 'i')
/** Asking for the best rated of the matches: the retriever orders by rating (constraints/signals.ts). */
export const BEST_RATED_SOURCE = String.raw`(?:best|top|highest)[\s-]+(?:rated|reviewed)`

// Pointing back at the items an earlier reply named, and asking about them (references.ts, constraints/plan.ts).

/** Words that point back instead of naming a product ("cheaper ones?", "is it waterproof?"): a pattern's alternation. */
export const POINTER_WORDS = 'ones?|it|them|they|those|these'
/** Ordinal words, by the place (from 0) they point at in a list; -1 the last. */
export const ORDINALS: Record<string, number> = {
  first: 0, '1st': 0, second: 1, '2nd': 1, third: 2, '3rd': 2, fourth: 3, '4th': 3, fifth: 4, '5th': 4, last: -1
}
/** "the second one", "number 2", "#3": the ordinal word (group 1) or the number (group 2). */
export const ORDINAL = /\b(?:the )?(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)(?: (?:one|item|option|product|model|choice))?\b|\b(?:number|no\.?|option|item|#) ?([1-5])\b/g
/** "the first two", "the last 3", "your top three": a span at one end of a list (group 1 the end, group 2 how many). */
export const SPAN = /\b(?:the |your )?(first|top|last) (two|three|four|five|2|3|4|5)\b/
export const BOTH = /\b(?:both|these two|those two|the two|the two of them|either|each)\b/
export const ALL = /\b(?:them|these|those|all of them|they)\b/
export const ONE = /\b(?:it|its|it's|that one|this one|that|this|the one)\b/

/** Field names a shopper uses, by catalog attribute. */
export const FIELD_WORDS: Array<[RegExp, string]> = [
  [new RegExp(String.raw`\b(?:how much|price|prices|cost|costs|expensive|cheap|${termsSource([...CHEAPER_TERMS, ...CHEAPEST_TERMS, ...PRICIER_TERMS])})\b`), 'price'],
  [/\b(?:in stock|stock|available|availability|sold out|buy it now)\b/, 'in_stock'],
  [/\b(?:rating|ratings|rated|reviews?|stars?|better|best)\b/, 'rating'],
  [/\b(?:brand|who makes|made by|manufacturer|maker)\b/, 'brand'],
  [/\b(?:colou?rs?)\b/, 'color'],
  [/\b(?:category|kind of)\b/, 'category'],
  [/\b(?:sizes?)\b/, 'sizes']
]
/** Words of a follow-up that are about asking, pointing or comparing, not about the item. */
export const ASKING_OR_POINTING = new Set(['one', 'item', 'option', 'product', 'model', 'choice', 'first', '1st', 'second', '2nd', 'third', '3rd', 'fourth',
  '4th', 'fifth', '5th', 'last', 'number', 'both', 'two', 'better', 'best', 'cheaper', 'cheapest', 'pricier', 'compare', 'difference',
  'between', 'which', 'price', 'cost', 'expensive', 'cheap', 'stock', 'available', 'availability', 'sold', 'rating', 'rated', 'review',
  'star', 'brand', 'make', 'maker', 'manufacturer', 'color', 'colour', 'category', 'kind', 'size', 'yes', 'ok', 'okay', 'great', 'cool',
  'thank', 'thanks', 'nice', 'buy', 'now', 'much', 'long', 'tell', 'describe', 'detail', 'info', 'information', 'say', 'really',
  ...[...CHEAPER_TERMS, ...CHEAPEST_TERMS, ...PRICIER_TERMS].flatMap((t) => t.split(/[ -]/))])
/** "cheaper?", "better ones?": a new search for other items (plan.ts), not a question about these. */
export const REFINEMENT = new RegExp(String.raw`\b(?:${termsSource([...CHEAPER_TERMS, ...CHEAPEST_TERMS, ...PRICIER_TERMS])}|better|best)\b(?! than)`)
/** Which of them costs less, costs more, is better rated; or any comparison of a field ("which is lighter?"). */
export const LOWER_PRICE = new RegExp(String.raw`\b(?:${termsSource([...CHEAPER_TERMS, ...CHEAPEST_TERMS])})\b`)
export const HIGHER_PRICE = new RegExp(String.raw`\b(?:${termsSource(PRICIER_TERMS)})\b`)
export const BETTER_RATED = /\b(?:better|best|higher|top)[ -]rated\b|\bbetter reviews?\b|\bwhich is better\b|\bwhich one is better\b|\bbetter\b/
export const COMPARING = /\b(?:which|compare|difference|versus|vs)\b/

// What only a person can do (handoff.ts).

/**
 * "How do I reset my password?", "how can I cancel my order?": the customer asks how to do it
 * themselves, which the help pages may say; only asking the shop to act, or saying they want it
 * done, is an action for a person.
 */
export const HOW_TO = new RegExp(String.raw`${OPENING}(?:how (?:do|can|could|would|should) (?:i|we|you)|how to|is it possible to|is there a way to|what(?:'s| is| are)? the (?:steps|way|process) to|what do i (?:need to )?do to|where (?:do|can) i)\b`)

/** The verbs of acting on an order or an account, the words of owning one, and what is acted on. */
const ACTION_VERBS = 'cancel|refund|return|exchange|change|modify|update|amend|track|trace|replace|delete|close|unsubscribe|reset|resend|re-send|apply|add|remove|split|combine|upgrade|downgrade'
const OWN = 'my|our|the|this|that|an?|it|them|me'
const THINGS = 'orders?|purchases?|parcels?|packages?|deliver(?:y|ies)|shipments?|payments?|charges?|subscriptions?|accounts?|address|email|password|items?|money|invoices?|receipt'
/**
 * What only a person can do for the customer, first match first (handoff.ts): an action on their own
 * order, payment or account ('action'), or a person asked for ('person').
 */
export const HANDOFF_PATTERNS: Array<[RegExp, 'action' | 'person']> = [
  // a person: "can I talk to a human", "agent please", "customer service"
  [/\b(?:speak|talk|connect me|put me through)\b[^.?!]{0,20}\b(?:human|person|people|agent|someone|somebody|representative|manager|staff|operator|team)\b/, 'person'],
  [/\b(?:want|need|get|give me|with|to) (?:a |an )?(?:real|live|actual) (?:person|human|agent)\b|\b(?:human|agent|operator|representative)(?: please|,? please|!|$)/, 'person'],
  // "I'd like a person", "a person please", "I want a human"
  [/\b(?:i|we)(?:'d| would)? (?:like|want|need) (?:a|an|some) (?:person|human|agent|representative|team member)(?![\w-])|^(?:an? )?(?:person|human|team member)(?:,? please)?[.!]*$/, 'person'],
  [/\bcustomer (?:service|support|care)\b.*\b(?:contact|reach|call|speak|talk)\b|\b(?:contact|reach|call) (?:the )?(?:customer (?:service|support)|support|you)\b/, 'person'],
  // where is my order / my refund
  [/\bwhere(?:'s| is| are)? (?:my|our) (?:order|parcel|package|delivery|refund|money|shipment)/, 'action'],
  [/\b(?:my|our) (?:order|parcel|package|delivery|refund)\b[^.?!]{0,40}\b(?:(?:has|have|hasn't|haven't|has not|have not|did not|didn't|never) (?:arrived|come|shipped|been (?:delivered|shipped))|is (?:late|missing|lost|delayed|wrong)|was (?:wrong|damaged|broken))/, 'action'],
  // "cancel my order", "I want a refund", "can you change my address", "refund me"
  [new RegExp(`\\b(?:${ACTION_VERBS})\\b[^.?!]{0,24}\\b(?:my|our) (?:[\\w-]+ ){0,2}(?:${THINGS})\\b`), 'action'],
  [new RegExp(`\\b(?:i|we) (?:want|need|would like|'d like|demand|wish) (?:to )?(?:get )?(?:a |an |my |our )?(?:${ACTION_VERBS}|replacement|cancellation|repair)\\b(?![^.?!]{0,30}\\b(?:policy|policies|rules?)\\b)`), 'action'],
  [new RegExp(`\\b(?:can|could|would|will) you (?:please )?(?:${ACTION_VERBS})\\b`), 'action'],
  [new RegExp(`^(?:please )?(?:${ACTION_VERBS}) (?:${OWN})\\b`), 'action'],
  [/\brefund me\b|\bgive me (?:a |my )?(?:refund|money back)\b|\b(?:want|need) (?:my|our) money back\b/, 'action'],
  // The same in the languages the assistant notes (language.ts): the shopper's own words are read.
  [/\b(?:cancelar|anular|devolver|annuler|rembourser|stornieren|zurückgeben|erstatten|annullare|rimborsare|cancelar|reembolsar|annuleren|terugbetalen)\b[^.?!]{0,30}\b(?:mi|mis|ma|mon|mes|meine[nr]?|il mio|la mia|o meu|a minha|mijn)\b|\b(?:d[oó]nde est[aá]|o[uù] est|wo ist|dov'è|onde está|waar is) (?:mi|ma|mon|meine|il mio|la mia|o meu|a minha|mijn)\b|\b(?:quiero|je veux|ich will|ich möchte|voglio|quero|ik wil) (?:un |una |mon |mein |meinen |il |o |mijn )?(?:reembolso|remboursement|geld zurück|rückerstattung|rimborso|terugbetaling)\b/, 'action'],
  [/\b(?:meine[nrs]?|mein|mijn) (?:\S+ ){0,2}(?:stornieren|zurückgeben|erstatten|annuleren|terugsturen)/, 'action'],
  [/\b(?:hablar con|parler (?:à|a|avec)|sprechen mit|parlare con|falar com|spreken met)[^.?!]{0,20}\b(?:humano|persona|agente|humain|personne|conseiller|menschen|mitarbeiter|operatore|pessoa|atendente|mens|medewerker)/, 'person'],
  [/\bmit (?:einem|einer) (?:menschen|mitarbeiter(?:in)?|person)\b/, 'person']
]

// The shape of sentence that answers a question (question-cues.ts).

/** Sentences that hold a number, a condition or a moment, a reason. */
export const NUMBER = /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|dozen|unlimited|no limit)\b/i
export const CONDITION = /\b(?:when|whenever|once|after|before|until|unless|if|only|as soon as|within)\b/i
export const REASON = /\b(?:because|since|so that|in order to|useful|helpful|helps?|allows?|lets?|ensures?)\b/i
/** "X - …", "X: …", "X is …", "X means …": the words of a definition. */
export const DEFINES = /(?:^|\s)(?:[-–—:]|is|are|means?|refers? to|stands? for)\s/i

/** Of the sentence's first words: a definition names what it defines first. */
export const DEFINED_WITHIN = 3

/**
 * A step of a procedure: "To reset it, hold …", an instruction opening with a verb ("Click Save",
 * "Remove the card"), or "you can/need to/should …" (not "you can't"). List markers and opening
 * quotes are skipped ("1. Click Save.").
 */
export const INSTRUCTION = /^(?:to \w+[^.]*,|first|then|next,|finally|now,)|^(?:add|change|check|choose|click|close|connect|copy|create|delete|disable|download|edit|enable|enter|go|hold|install|keep|make|mark|move|open|plug|power (?:down|off|on|up)|press|remove|replace|restart|run|save|select|set|switch|tap|turn|type|uncheck|unplug|use|visit)\b|\byou (?:can(?!not|'t)|could|need to|must|should|will need to|have to)\b/i
export const LIST_MARKER = /^\s*(?:\d+[.)]|[-*•]|["“'])\s*/
/** A yes or a no: what can or must be done, what is possible, required or optional. */
export const ABILITY = /\b(?:you (?:can|cannot|can't|may|may not)|you (?:do not|don't|will not|won't) (?:need|have) to|can(?:not|'t)? (?:only )?be|(?:can|may) only|only once|must(?: not|n't)? \w+|(?:is|are)(?: not|n't)? (?:possible|required|optional|allowed|supported)|(?:isn't|aren't) (?:possible|required|optional|allowed|supported))\b/i
/** "can I …?", "do customers …?", "is it possible …?": a question whether something can or must be done. */
export const ASKS_ABILITY = new RegExp(String.raw`${OPENING}(?:(?:can|could|may|must|do|does|should) (?:i|we|one|it|they|this|that|a|an|the|my|our|customers?|users?|shoppers?|staff)|is it possible|is there a way|am i able)\b`)

/** Questions that ask for a number, a moment or condition, a reason, or what something is. */
export const ASKS_NUMBER = /^(?:how (?:many|much|long|often|big|large|old)|what(?:'s| is) the (?:max|min|limit|number))/
export const ASKS_WHEN = /^(?:when\b|at what point|until when|how soon)/
export const ASKS_WHY = /^why\b/
export const ASKS_WHAT = /^(?:what(?:'s| is| are| does| do)\b|define\b|meaning of\b)/
/** "what can I …", "what should I …", "what is the way how …": not a question what something is. */
export const NOT_A_DEFINITION = /\b(?:can|should|how)\b/

/** "How do I …", "how to …", "what are the steps to …": the answer is a procedure, its steps in order. */
export const ASKS_HOW = new RegExp(String.raw`${OPENING}(?:how (?:do|can|could|should|would|will) (?:i|we|you|one)|how to|how is|how are|what (?:are|is) the steps?|steps to|what do i (?:need to )?do)\b`, 'i')

/** Colour words that mean only a colour. Others ("Cream", "Copper", "Walnut", "Sand") also name materials and products. */
export const PLAIN_COLORS = new Set(['black', 'white', 'red', 'blue', 'green', 'yellow', 'orange', 'purple', 'pink', 'grey', 'gray',
  'navy', 'teal', 'beige', 'brown', 'multicolour', 'multicolor'])

// Around the catalog's own category and colour names (constraints/terms.ts).

/** "green tea" is a tea, "white noise" a sound. */
export const NOT_A_COLOR_BEFORE = '(?!\\s+(?:tea|coffee|wine|noise|friday|lights?|out|belt|beans?|tape|board)\\b)'
/** Before a category word these make it the shopper's context, not the product: "for camping", "my laptop". */
export const CONTEXT_BEFORE = new Set(['for', 'on', 'at', 'my', 'your', 'our', 'his', 'her', 'their', 'during', 'while', 'after', 'to'])
/** After a category word these leave it the head of its phrase ("tents for two", "tablets under $400"). */
export const HEAD_AFTER = new Set(['', 'for', 'with', 'that', 'which', 'who', 'under', 'below', 'over', 'above', 'from', 'in', 'on',
  'at', 'to', 'by', 'and', 'or', 'but', 'can', 'could', 'should', 'would', 'will', 'is', 'are', 'i', 'you', 'we', 'please',
  'less', 'more', 'than', 'between', 'around', 'about', 'only', 'without', 'like', 'rated', 'made', 'available', 'if', 'so'])

// The words a keyword query for the catalog is built without (constraints/text.ts, plan.ts).

/**
 * Politeness and shopping talk that names no product. Kept short on purpose: every entry is a word a
 * keyword search would otherwise have to find in an item. Longer phrases come first.
 */
export const QUERY_FILLER = [
  '(?:can|could|would|will) you (?:please )?(?:show|find|recommend|suggest|get)(?: (?:me|us))?',
  "i(?:'m| am) (?:looking|searching|shopping) for", '(?:looking|searching|shopping) for',
  "i(?:'m| am) (?:after|interested in)", "i(?:'d| would) like", 'i (?:need|want)',
  'do you (?:also |still |currently |even )?(?:have|sell|carry|stock|recommend)', 'have you got', 'you (?:have|sell|carry)',
  'are there', 'is there', 'what about', 'how about', "what(?:'s| is| are)", 'what', 'which(?: is| are)?',
  'should i (?:get|buy|look at)', 'can i (?:get|buy)', 'how (?:can|do) i', '(?:is|are) (?:the )?(?:best|good)',
  "for (?:my|a|an|our) (?:\\d+[- ]?(?:year|yr)s?[- ]?old|son|daughter|kids?|children|child|wife|husband|partner|mom|mum|dad|father|mother|friend|girlfriend|boyfriend|brother|sister|baby|toddler)(?:'s)?",
  // a gift names its recipient's interest, not a product: "a gift for my dad who loves coffee" is coffee
  '(?:(?:a|some) )?(?:birthday |christmas )?(?:gifts?|presents?)(?: ideas?)?', '(?:who|that) (?:really )?(?:loves?|likes?|enjoys?|is into|is a fan of)', "(?:he|she|they)(?:'s| is| are) into",
  '(?:show|find|get) (?:me|us)', 'show', 'find', 'recommend', 'suggest', 'please', 'thanks', 'thank you', 'hi', 'hello', 'hey',
  'any', 'some', 'something', 'anything', 'good', 'best', 'great', 'your', 'actually', 'maybe', 'perhaps', 'okay', 'ok',
  // price words without a number: no item says "cheap" (extractOrder reads "the cheapest" before they go)
  'cheap', 'inexpensive', termsSource([...CHEAPER_TERMS, ...CHEAPEST_TERMS]),
  // pointers back to earlier turns (plan.ts reads them from the message itself)
  'ones', 'that one', 'this one', 'which one', 'it', 'them', 'they', 'those', 'these'
].map((f) => f.replace(/ /g, '\\s+'))

/** Words that carry nothing at either end of a query ("tents for", "that are"). */
export const QUERY_EDGE = new Set(['a', 'an', 'the', 'and', 'or', 'but', 'for', 'with', 'from', 'by', 'in', 'on', 'at', 'of', 'to',
  'that', 'which', 'who', 'is', 'are', 'be', 'me', 'my', 'i', 'you', 'can', 'do', 'does', 'also', 'so', 'just', 'only',
  'really', 'very', 'get', 'one', 'as', 'than', 'would', 'should', 'could', 'will', 'there', 'too', 'else', 'instead', "'s"])

/**
 * Function words inside a query. Keyword search wants every word of its query in an item, and no
 * item says "with the" or "rated to": "espresso machine with the built-in grinder" finds nothing,
 * "espresso machine built-in grinder" finds it. Negations stay: they change the meaning.
 */
export const QUERY_FUNCTION_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'for', 'with', 'that', 'which', 'who', 'is', 'are',
  'be', 'my', 'me', 'i', 'you', 'it', 'its', 'in', 'on', 'at', 'by', 'from', 'so', 'just', 'very', 'really', 'can', 'do',
  'does', 'will', 'would', 'should', 'could', 'when', 'while', 'if', 'as', 'than', 'also', 'there', "'s"])
