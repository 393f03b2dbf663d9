import { Type, type Static } from 'typebox'

/** Where a cited fact comes from (decision 7, spec/knowledge.md). */
export const CitationSource = Type.Union([Type.Literal('catalog'), Type.Literal('knowledge'), Type.Literal('faq')], {
  description: '"catalog": an item (reference = item id); "knowledge": a chunk of a page (reference = `<document id>#<chunk id>`); "faq": a question-and-answer pair (reference = its id)'
})
export type CitationSource = Static<typeof CitationSource>

/** A source the reply used (decision 7): a reply states nothing about the shop that its citations do not hold. */
export const Citation = Type.Object({
  source: CitationSource,
  reference: Type.String({ description: 'The item id, `<document id>#<chunk id>`, or the pair\'s id', examples: ['sku-1042', 'shipping#c2', 'faq-returns'] }),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'Retrieval confidence as a fraction' }),
  title: Type.Optional(Type.String()),
  url: Type.Optional(Type.String({ description: 'Where the source can be read: the page and its section\'s anchor, when it has one' }))
}, { additionalProperties: false })
export type Citation = Static<typeof Citation>
