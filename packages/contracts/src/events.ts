import { Type, type Static } from 'typebox'
import { limits } from './limits.js'
import { DOCUMENT_ID_PATTERN } from './catalog.js'

/**
 * What a shopper did after a search (POST /events): opened one of its hits, or converted. The
 * console's analytics count them per search (click-through and conversion rates, the average
 * position clicked).
 */
export const ClickEventType = Type.Union([Type.Literal('click'), Type.Literal('conversion')], {
  description: '`click`: the shopper opened a hit of the search; `conversion`: after the search, the shopper bought the item ' +
    'or did what the shop counts as a conversion (added it to a cart, booked it)'
})
export type ClickEventType = Static<typeof ClickEventType>

export const ClickEvent = Type.Object({
  type: ClickEventType,
  query_id: Type.String({
    minLength: 1,
    maxLength: limits.idMaxChars,
    description: 'The query_id of the POST /search answer the shopper acted on, made with a credential of this project ' +
      '(searches made with the service token are not recorded: their query_id is refused, 404 query_not_found)'
  }),
  item_id: Type.String({ pattern: DOCUMENT_ID_PATTERN, description: 'The id of the catalog item clicked or converted (recorded as sent, not looked up in the catalog)' }),
  position: Type.Optional(Type.Integer({
    minimum: 1,
    maximum: limits.searchWindowMax,
    description: 'The hit\'s place in the whole result list, 1-based, across pages (offset + its index in hits + 1), as rules\' pins ' +
      'count it; the average click position is that of the clicks that give one'
  })),
  consumer_id: Type.Optional(Type.Union([Type.String({ maxLength: limits.consumerIdMaxChars }), Type.Null()], {
    description: 'Who acted, recorded with the event for analytics'
  }))
}, { additionalProperties: false })
export type ClickEvent = Static<typeof ClickEvent>

/** POST /events: one event, or a list recorded together. */
export const ClickEventsBody = Type.Union([ClickEvent, Type.Array(ClickEvent, { maxItems: limits.clickEventsMax })], {
  description: `One event, or a list of at most ${limits.clickEventsMax} recorded all together or not at all ` +
    '(one unknown query_id refuses the list)'
})
export type ClickEventsBody = Static<typeof ClickEventsBody>

export const ClickEventsResponse = Type.Object({
  recorded: Type.Integer({ minimum: 0, description: 'Events recorded: every one sent' })
}, { additionalProperties: false })
export type ClickEventsResponse = Static<typeof ClickEventsResponse>
