/**
 * The assistant's word lists and intent patterns, in one place (English; general shop and help-centre
 * language, never the terms of one shop), and the words a catalog query is tidied of. The constraint
 * extractors keep their own patterns for prices, stock, ratings and order in constraints/ (they read
 * amounts and bounds, not intents).
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

/** The shopper asks for products: to buy, see, be recommended or given something. */
export const PRODUCT_SEEKING = new RegExp([
  '\\b(?:do|does) (?:you|the shop|your shop|u) (?:\\w+ )?(?:have|sell|carry|stock|offer)\\b', '\\b(?:looking|searching|shopping) for\\b',
  '\\bshow me\\b', '\\brecommend', '\\bsuggest', '\\bi (?:need|want) (?:a|an|some|something|new)\\b', '\\bshould i (?:get|buy|choose)\\b',
  '\\bwhat (?:should|can|could) i (?:get|buy)\\b', '\\bsomething (?:to|for|that)\\b', '\\b(?:gift|present)s?\\b', '\\bbuy\\b',
  '\\bwhich [\\w-]+(?: [\\w-]+)? (?:is|are) (?:the )?(?:best|good|better)\\b', "\\bwhat(?:'s| is) (?:a|the) (?:good|best)\\b",
  '\\b(?:cheapest|priciest|most expensive|best[- ]rated|top[- ]rated)\\b'
].join('|'), 'i')

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
export const ASKS_WHETHER_ONE_MAY = /^(?:(?:hi|hello|hey|ok|okay|so|and|but|please)\W+)*(?:can|could|may) (?:i|we)\b(?! (?:get|buy|order|purchase|find|see|have|afford)\b)/i

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
export const CHEAPER = /\b(?:cheaper|less expensive|lower[- ]priced|more affordable)\b/i

/** Colour words that mean only a colour. Others ("Cream", "Copper", "Walnut", "Sand") also name materials and products. */
export const PLAIN_COLORS = new Set(['black', 'white', 'red', 'blue', 'green', 'yellow', 'orange', 'purple', 'pink', 'grey', 'gray',
  'navy', 'teal', 'beige', 'brown', 'multicolour', 'multicolor'])

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
  'cheap(?:er|est)?', '(?:less|least) expensive', 'lowe(?:r|st)[- ]priced', 'inexpensive', '(?:more|most) affordable',
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
