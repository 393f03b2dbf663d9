import { Type, type Static } from 'typebox'

/** A source the reply used: `source` is "catalog" and `reference` the item id (decision 7). */
export const Citation = Type.Object({
  source: Type.String({ examples: ['catalog'] }),
  reference: Type.String({ description: 'Identifier of the cited item', examples: ['sku-1042'] }),
  confidence: Type.Number({ minimum: 0, maximum: 1, description: 'Retrieval confidence as a fraction' }),
  title: Type.Optional(Type.String())
}, { additionalProperties: false })
export type Citation = Static<typeof Citation>
