import t from 'tap'
import { Value } from 'typebox/value'
import { readFile } from 'node:fs/promises'
import {
  CatalogSettings, ClickEventsBody, ClickEventsResponse, ErrorBody, errorCatalog, errorResponses, FacetSearchBody, FacetSearchResponse, formatDefaults, LatestConsumerChatIdResponse, Message,
  NewUserMessageBody, SearchAnalyticsResponse, SearchBody, SearchHit, SearchResponse, SearchRule, SearchRulesBody, SearchRulesResponse, SuggestionCandidatesQuery, SuggestionCandidatesResponse,
  limits, matchingStrategyDefault, errorBody, chatErrors, searchErrors, FeedbackBody, FeedbackResponse, AdminMessage, hitFieldTypes, isOfHitType
} from '../src/index.js'

t.test('newUserMessage body follows the spec and the decided limits', async (t) => {
  t.ok(Value.Check(NewUserMessageBody, { user_message: 'hi', consumer_id: 'c' }))
  t.ok(Value.Check(NewUserMessageBody, { user_message: 'hi', chat_id: '', consumer_id: 'c', test: false }))
  t.notOk(Value.Check(NewUserMessageBody, { user_message: '' }), 'empty message')
  t.notOk(Value.Check(NewUserMessageBody, { user_message: '   ' }), 'blank message')
  t.notOk(Value.Check(NewUserMessageBody, { user_message: 'x'.repeat(limits.userMessageMaxChars + 1) }))
  t.ok(Value.Check(NewUserMessageBody, { user_message: 'x'.repeat(limits.userMessageMaxChars) }))
  t.notOk(Value.Check(NewUserMessageBody, { user_message: 'hi', extra: 1 }), 'unknown fields')
})

t.test('messages carry classification or citations', async (t) => {
  const user = { msg_id: 'm1', role: 'user', content: 'hi', timestamp: '2026-01-01T00:00:00.000Z', classification: 'greeting' }
  t.ok(Value.Check(Message, user))
  t.notOk(Value.Check(Message, { ...user, classification: 'rant' }), 'only the six labels')
  t.notOk(Value.Check(Message, { ...user, role: 'system' }))
  t.ok(Value.Check(Message, { msg_id: 'm2', role: 'assistant', content: 'hello', timestamp: '2026-01-01T00:00:01.000Z', citations: [{ source: 'catalog', reference: 'sku-1', confidence: 0.8 }] }))
  t.notOk(Value.Check(Message, { msg_id: 'm2', role: 'assistant', content: 'x', timestamp: 't', citations: [{ source: 'catalog', reference: 'sku-1', confidence: 1.5 }] }))
})

t.test('feedback: up or down on a message, a bounded comment; the team reads it with the message, the shopper never', async (t) => {
  const ok = { chat_id: 'c', msg_id: 'm', rating: 'up' }
  t.ok(Value.Check(FeedbackBody, ok))
  t.ok(Value.Check(FeedbackBody, { ...ok, rating: 'down', comment: 'x'.repeat(limits.feedbackCommentMaxChars) }))
  t.ok(Value.Check(FeedbackBody, { ...ok, comment: '' }), 'an empty comment (the route keeps none)')
  const without = (field: string) => Object.fromEntries(Object.entries(ok).filter(([name]) => name !== field))
  for (const bad of [
    without('chat_id'), without('msg_id'), without('rating'),
    { ...ok, rating: 'sideways' }, { ...ok, rating: null }, { ...ok, chat_id: '' }, { ...ok, msg_id: 'm'.repeat(limits.idMaxChars + 1) },
    { ...ok, comment: 'x'.repeat(limits.feedbackCommentMaxChars + 1) }, { ...ok, comment: null }, { ...ok, consumer_id: 'ann' }
  ]) t.notOk(Value.Check(FeedbackBody, bad), JSON.stringify(bad).slice(0, 80))
  const feedback = { rating: 'down', comment: 'wrong size', rated_at: '2026-01-01T00:00:02.000Z' }
  t.ok(Value.Check(FeedbackResponse, { chat_id: 'c', msg_id: 'm', ...feedback }))
  t.ok(Value.Check(FeedbackResponse, { chat_id: 'c', msg_id: 'm', rating: 'up', rated_at: feedback.rated_at }), 'no comment')
  const reply = { msg_id: 'm', role: 'assistant', content: 'hello', timestamp: '2026-01-01T00:00:01.000Z', citations: [] }
  t.ok(Value.Check(AdminMessage, { ...reply, feedback }))
  t.notOk(Value.Check(Message, { ...reply, feedback }), 'the shopper\'s messages carry none')
})

t.test('latestConsumerChatId allows a null chat id', async (t) => {
  t.ok(Value.Check(LatestConsumerChatIdResponse, { chat_id: null, message: 'no chats' }))
  t.ok(Value.Check(LatestConsumerChatIdResponse, { chat_id: 'c', last_updated_at: '2026-01-01T00:00:00.000Z' }))
})

t.test('search body follows the spec defaults and limits', async (t) => {
  t.ok(Value.Check(SearchBody, { search_term: '' }))
  t.ok(Value.Check(SearchBody, { search_term: 'x', filters: null, facets: null, limit: null, offset: null, consumer_id: null }))
  t.notOk(Value.Check(SearchBody, { search_term: 'x', search_type: 'semantic' }))
  t.notOk(Value.Check(SearchBody, { search_term: 'x', limit: limits.searchLimitMax + 1 }))
  t.notOk(Value.Check(SearchBody, {}))
  for (const strategy of ['last', 'all', 'frequency']) t.ok(Value.Check(SearchBody, { search_term: 'x', matching_strategy: strategy }), strategy)
  for (const strategy of ['any', 'LAST', null]) t.notOk(Value.Check(SearchBody, { search_term: 'x', matching_strategy: strategy }), String(strategy))
  t.equal((SearchBody.properties.matching_strategy as { default?: unknown }).default, matchingStrategyDefault, 'the documented default is the one used')
  t.equal(matchingStrategyDefault, 'last', 'Meilisearch\'s')
  t.ok(Value.Check(SearchBody, { search_term: 'x', sort: ['price:asc', 'rating:desc'] }))
  t.ok(Value.Check(SearchBody, { search_term: 'x', sort: null }))
  t.ok(Value.Check(SearchBody, { search_term: 'x', sort: [] }))
  t.ok(Value.Check(SearchBody, { search_term: 'x', sort: ['price'] }), 'the syntax is the route\'s to check: 400 invalid_sort, as Meilisearch answers it')
  for (const sort of ['price:asc', [1], [''], Array.from({ length: limits.sortCriteriaMax + 1 }, (_, i) => `a${i}:asc`)]) {
    t.notOk(Value.Check(SearchBody, { search_term: 'x', sort }), JSON.stringify(sort).slice(0, 40))
  }
})

t.test('search body: highlight and crop as Meilisearch\'s, with bounds', async (t) => {
  t.ok(Value.Check(SearchBody, {
    search_term: 'x',
    attributes_to_highlight: ['*'],
    attributes_to_crop: ['description:5', 'title'],
    crop_length: 0,
    crop_marker: '',
    highlight_pre_tag: '<mark class="hit">',
    highlight_post_tag: '</mark>'
  }))
  t.ok(Value.Check(SearchBody, { search_term: 'x', attributes_to_highlight: null, attributes_to_crop: null }), 'null is none, as Meilisearch\'s')
  t.ok(Value.Check(SearchBody, { search_term: 'x', attributes_to_highlight: [] }))
  for (const extra of [
    { attributes_to_highlight: 'title' },
    { attributes_to_crop: [''] },
    { attributes_to_highlight: Array.from({ length: limits.formatAttributesMax + 1 }, (_, i) => `a${i}`) },
    { crop_length: -1 },
    { crop_length: limits.cropLengthMax + 1 },
    { crop_length: 1.5 },
    { crop_marker: null },
    { highlight_pre_tag: 'x'.repeat(limits.formatMarkerMaxChars + 1) }
  ]) t.notOk(Value.Check(SearchBody, { search_term: 'x', ...extra }), JSON.stringify(extra).slice(0, 40))
  const defaultOf = (name: string) => (SearchBody.properties[name as keyof typeof SearchBody.properties] as { default?: unknown }).default
  t.same([defaultOf('crop_length'), defaultOf('crop_marker'), defaultOf('highlight_pre_tag'), defaultOf('highlight_post_tag')],
    [formatDefaults.cropLength, formatDefaults.cropMarker, formatDefaults.highlightPreTag, formatDefaults.highlightPostTag], 'the documented defaults are the ones used')
  t.same(formatDefaults, { cropLength: 10, cropMarker: '…', highlightPreTag: '<em>', highlightPostTag: '</em>' }, 'Meilisearch\'s')
  t.ok(Value.Check(SearchHit, { id: 'a', title: 'A', _formatted: { id: 'a', title: '<em>A</em>', price: 3 } }), 'a hit may carry _formatted, as any other field')
  // The hit's typed fields are the ones POST /documents checks (hitFieldTypes): the two lists cannot drift apart.
  t.same(Object.keys(SearchHit.properties).filter((k) => k !== 'id').sort(), Object.keys(hitFieldTypes).sort(), 'SearchHit types the fields hitFieldTypes lists')
  const sample = { string: 'x', number: 1, boolean: true }
  const other = { string: 1, number: 'x', boolean: 'yes' }
  for (const [field, type] of Object.entries(hitFieldTypes)) {
    t.ok(Value.Check(SearchHit, { id: 'a', [field]: sample[type] }) && Value.Check(SearchHit, { id: 'a', [field]: null }), `${field}: a ${type} or null`)
    t.notOk(Value.Check(SearchHit, { id: 'a', [field]: other[type] }), `${field}: not another type`)
    t.ok(isOfHitType(type, sample[type]) && !isOfHitType(type, other[type]), `isOfHitType agrees for ${field}`)
  }
})

t.test('facet search body and answer: Meilisearch\'s facet search in snake case, with bounds', async (t) => {
  t.ok(Value.Check(FacetSearchBody, { facet_name: 'brand' }), 'only the facet is required')
  t.ok(Value.Check(FacetSearchBody, { facet_name: 'brand', facet_query: 'tra', search_term: 'boots', filters: 'price < 100', matching_strategy: 'all' }))
  t.ok(Value.Check(FacetSearchBody, { facet_name: 'brand', facet_query: null, search_term: null, filters: null }), 'null is none, as Meilisearch\'s')
  t.ok(Value.Check(FacetSearchBody, { facet_name: 'x'.repeat(limits.facetNameMaxChars), facet_query: 'x'.repeat(limits.facetQueryMaxChars) }))
  for (const body of [
    {},
    { facet_query: 'tra' },
    { facet_name: '' },
    { facet_name: 'x'.repeat(limits.facetNameMaxChars + 1) },
    { facet_name: 'brand', facet_query: 'x'.repeat(limits.facetQueryMaxChars + 1) },
    { facet_name: 'brand', search_term: 'x'.repeat(limits.termMaxChars + 1) },
    { facet_name: 'brand', matching_strategy: 'any' },
    { facet_name: 'brand', search_type: 'semantic' },
    { facet_name: 'brand', semantic_ratio: 1.1 },
    { facet_name: ['brand'] }
  ]) t.notOk(Value.Check(FacetSearchBody, body), JSON.stringify(body).slice(0, 40))
  t.equal((FacetSearchBody.properties.matching_strategy as { default?: unknown }).default, matchingStrategyDefault, 'the same default as a search\'s')
  t.ok(Value.Check(FacetSearchBody, { facet_name: 'brand', search_term: 'boots', search_type: 'hybrid', semantic_ratio: 0.4 }), 'a hybrid search\'s values, as on /search')
  t.equal((FacetSearchBody.properties.semantic_ratio as { default?: unknown }).default, (SearchBody.properties.semantic_ratio as { default?: unknown }).default, 'the same ratio by default')
  const facets = SearchBody.properties.facets as unknown as { anyOf: Array<{ items?: { maxLength?: number } }> }
  t.equal(facets.anyOf[0]?.items?.maxLength, limits.facetNameMaxChars, 'a facet name has one bound, in both bodies')

  const answer = { facet_hits: [{ value: 'Trailmark', count: 4 }, { value: 'true', count: 1 }], facet_query: 'tra', processingTimeMs: 1 }
  t.ok(Value.Check(FacetSearchResponse, answer))
  t.ok(Value.Check(FacetSearchResponse, { ...answer, facet_hits: [] }))
  t.notOk(Value.Check(FacetSearchResponse, { ...answer, facet_hits: [{ value: 'x', count: 0 }] }), 'a value no item holds is no hit')
  t.notOk(Value.Check(FacetSearchResponse, { ...answer, facet_hits: [{ value: 10, count: 1 }] }), 'values are strings')
  t.notOk(Value.Check(FacetSearchResponse, { ...answer, facet_hits: Array.from({ length: limits.facetValuesMax + 1 }, (_, i) => ({ value: `v${i}`, count: 1 })) }))
  t.equal(limits.facetValuesMax, 100, 'Meilisearch\'s default maxValuesPerFacet')
})

t.test('catalog settings: sortableAttributes may be left out (none)', async (t) => {
  const three = { searchableAttributes: ['title'], filterableAttributes: ['price'], facetableAttributes: [] }
  t.ok(Value.Check(CatalogSettings, three), 'settings written before sorting existed')
  t.ok(Value.Check(CatalogSettings, { ...three, sortableAttributes: ['price', 'rating.users'] }))
  t.notOk(Value.Check(CatalogSettings, { ...three, sortableAttributes: 'price' }))
  t.notOk(Value.Check(CatalogSettings, { ...three, sortableAttributes: ['price', 'price'] }), 'each once, as the other lists')
})

t.test('catalog settings: synonyms and stop words as Meilisearch\'s, optional, bounded', async (t) => {
  const three = { searchableAttributes: ['title'], filterableAttributes: ['price'], facetableAttributes: [] }
  t.ok(Value.Check(CatalogSettings, { ...three, synonyms: {}, stopWords: [] }), 'Meilisearch\'s defaults')
  t.ok(Value.Check(CatalogSettings, {
    ...three,
    synonyms: { phone: ['smartphone', 'mobile'], 'San Francisco': ['SF'], sf: ['san francisco'], lonely: [] },
    stopWords: ['the', 'of']
  }), 'a map of words or phrases, one-way; an empty list changes nothing')
  const many = <T>(n: number, of: (i: number) => T) => Array.from({ length: n }, (_, i) => of(i))
  t.ok(Value.Check(CatalogSettings, { ...three, synonyms: { x: many(limits.synonymAlternativesMax, (i) => `a${i}`) }, stopWords: many(limits.stopWordsMax, (i) => `w${i}`) }), 'up to the limits')
  t.ok(Value.Check(CatalogSettings, { ...three, synonyms: Object.fromEntries(many(limits.synonymsMax, (i): [string, string[]] => [`k${i}`, ['v']])) }))
  for (const extra of [
    { synonyms: [] },
    { synonyms: { phone: 'smartphone' } },
    { synonyms: { phone: [1] } },
    { synonyms: { phone: [''] } },
    { synonyms: { '': ['x'] } },
    { synonyms: { phone: ['mobile', 'mobile'] } },
    { synonyms: { 'a\nb': ['x'] } },
    { synonyms: { phone: ['x'.repeat(limits.synonymMaxChars + 1)] } },
    { synonyms: { ['x'.repeat(limits.synonymMaxChars + 1)]: ['y'] } },
    { synonyms: { x: many(limits.synonymAlternativesMax + 1, (i) => `a${i}`) } },
    { synonyms: Object.fromEntries(many(limits.synonymsMax + 1, (i): [string, string[]] => [`k${i}`, ['v']])) },
    { stopWords: 'the' },
    { stopWords: [''] },
    { stopWords: ['the', 'the'] },
    { stopWords: [3] },
    { stopWords: ['x'.repeat(limits.stopWordMaxChars + 1)] },
    { stopWords: many(limits.stopWordsMax + 1, (i) => `w${i}`) }
  ]) t.notOk(Value.Check(CatalogSettings, { ...three, ...extra }), JSON.stringify(extra).slice(0, 60))
})

t.test('search rules: the issue\'s shape, pins and hides bounded', async (t) => {
  const rule = { id: 'summer-boots', query: 'hiking boots', match: 'contains', pin: [{ item_id: 'sku-1', position: 1 }], hide: ['sku-2'] }
  t.ok(Value.Check(SearchRule, rule))
  t.ok(Value.Check(SearchRule, { id: 'r', query: '', match: 'exact' }), 'pin and hide may be left out (none); an empty query is a browse')
  t.ok(Value.Check(SearchRule, { ...rule, active_from: null, active_until: null }), 'null bounds are none')
  t.ok(Value.Check(SearchRulesBody, []), 'an empty list removes every rule')
  t.ok(Value.Check(SearchRulesBody, Array.from({ length: limits.rulesMax }, (_, i) => ({ id: `r${i}`, query: 'x', match: 'exact' }))))
  const many = (n: number) => Array.from({ length: n }, (_, i) => `sku-${i}`)
  t.ok(Value.Check(SearchRule, { ...rule, pin: many(limits.rulePinsMax).map((id, i) => ({ item_id: id, position: i + 1 })), hide: many(limits.ruleHidesMax) }), 'up to the limits')
  for (const extra of [
    { id: '' },
    { id: 'has space' },
    { id: 'x'.repeat(limits.idMaxChars + 1) },
    { query: 'x'.repeat(limits.termMaxChars + 1) },
    { match: 'fuzzy' },
    { match: undefined },
    { pin: [{ item_id: 'sku-1', position: 0 }] },
    { pin: [{ item_id: 'sku-1', position: 1.5 }] },
    { pin: [{ item_id: 'sku-1', position: limits.searchWindowMax + 1 }] },
    { pin: [{ item_id: '../keys', position: 1 }] },
    { pin: [{ item_id: 'sku-1' }] },
    { pin: many(limits.rulePinsMax + 1).map((id, i) => ({ item_id: id, position: i + 1 })) },
    { hide: ['sku-2', 'sku-2'] },
    { hide: many(limits.ruleHidesMax + 1) },
    { hide: 'sku-2' },
    { priority: 1 }
  ]) t.notOk(Value.Check(SearchRule, { ...rule, ...extra }), JSON.stringify(extra).slice(0, 60))
  t.notOk(Value.Check(SearchRulesBody, Array.from({ length: limits.rulesMax + 1 }, (_, i) => ({ id: `r${i}`, query: 'x', match: 'exact' }))))
  t.notOk(Value.Check(SearchRulesBody, { rules: [] }), 'the list itself, as the issue writes it')
  t.ok(Value.Check(SearchRulesResponse, { rules: [{ ...rule, active_from: '2026-06-01T00:00:00.000Z' }] }))
})

t.test('catalog settings: autocomplete\'s rules, optional, bounded', async (t) => {
  const three = { searchableAttributes: ['title'], filterableAttributes: ['price'], facetableAttributes: [] }
  t.equal(limits.suggestionsMinSearchersDefault, 3, 'one shopper\'s searches are not suggested to the others by default')
  t.ok(Value.Check(CatalogSettings, { ...three, suggestionsMinSearchers: 1, suggestionsExcluded: [] }), '1: any search that found something')
  t.ok(Value.Check(CatalogSettings, {
    ...three,
    suggestionsMinSearchers: limits.suggestionsMinSearchersMax,
    suggestionsExcluded: ['free money', 'Free  Money, now', 'x'.repeat(limits.termMaxChars)]
  }), 'excluded searches as typed (the engine folds them)')
  const many = <T>(n: number, of: (i: number) => T) => Array.from({ length: n }, (_, i) => of(i))
  t.ok(Value.Check(CatalogSettings, { ...three, suggestionsExcluded: many(limits.suggestionsExcludedMax, (i) => `q${i}`) }), 'up to the limit')
  for (const extra of [
    { suggestionsMinSearchers: 0 },
    { suggestionsMinSearchers: 2.5 },
    { suggestionsMinSearchers: '3' },
    { suggestionsMinSearchers: limits.suggestionsMinSearchersMax + 1 },
    { suggestionsExcluded: 'free money' },
    { suggestionsExcluded: [''] },
    { suggestionsExcluded: ['a', 'a'] },
    { suggestionsExcluded: ['x'.repeat(limits.termMaxChars + 1)] },
    { suggestionsExcluded: many(limits.suggestionsExcludedMax + 1, (i) => `q${i}`) }
  ]) t.notOk(Value.Check(CatalogSettings, { ...three, ...extra }), JSON.stringify(extra).slice(0, 60))
})

t.test('the popular searches autocomplete may suggest: a page, each with its status', async (t) => {
  const page = {
    results: [
      { query: 'sonora quiet', count: 12, searchers: 3, hits: 2, status: 'suggested' },
      { query: 'zqlhaaboie free money', count: 50, searchers: 1, hits: 0, status: 'no_keyword_results' },
      { query: 'tent', count: 1, searchers: 1, hits: null, status: 'no_keyword_results' }
    ],
    total: 3,
    limit: 20,
    offset: 0
  }
  t.ok(Value.Check(SuggestionCandidatesResponse, page))
  t.notOk(Value.Check(SuggestionCandidatesResponse, { ...page, results: [{ ...page.results[0], status: 'maybe' }] }), 'the statuses are a closed list')
  t.notOk(Value.Check(SuggestionCandidatesResponse, { ...page, results: [{ ...page.results[0], count: 0 }] }), 'a popular search was made at least once')
  t.ok(Value.Check(SuggestionCandidatesQuery, {}))
  t.ok(Value.Check(SuggestionCandidatesQuery, { limit: limits.candidatesLimitMax, offset: 5 }))
  t.notOk(Value.Check(SuggestionCandidatesQuery, { limit: limits.candidatesLimitMax + 1 }))
  t.notOk(Value.Check(SuggestionCandidatesQuery, { status: 'suggested' }), 'no other parameter')
})

t.test('search answers carry a query_id; click and conversion events name it, one or a list, bounded', async (t) => {
  const queryId = '0b6e4c1e-8f5a-4d7e-9a55-2f0b7d1c9e11'
  const answer = { hits: [], query: 'boots', query_id: queryId, processingTimeMs: 1, limit: 20, offset: 0, estimatedTotalHits: 0 }
  t.ok(Value.Check(SearchResponse, answer))
  const { query_id: _, ...withoutId } = answer
  t.notOk(Value.Check(SearchResponse, withoutId), 'every answer has one')

  const click = { type: 'click', query_id: queryId, item_id: 'sku-1', position: 2, consumer_id: 'user-42' }
  const without = (field: string) => Object.fromEntries(Object.entries(click).filter(([name]) => name !== field))
  t.ok(Value.Check(ClickEventsBody, click), 'one event')
  t.ok(Value.Check(ClickEventsBody, [click, { ...click, type: 'conversion' }]), 'or a list')
  t.ok(Value.Check(ClickEventsBody, []), 'an empty list records nothing')
  t.ok(Value.Check(ClickEventsBody, { type: 'conversion', query_id: 'not-a-uuid', item_id: 'sku-1' }),
    'position and consumer_id may be left out; any query_id of the right length (an unknown one is the route\'s 404)')
  t.ok(Value.Check(ClickEventsBody, { ...click, consumer_id: null }))
  t.ok(Value.Check(ClickEventsBody, Array.from({ length: limits.clickEventsMax }, () => click)), 'up to the limit')
  t.notOk(Value.Check(ClickEventsBody, Array.from({ length: limits.clickEventsMax + 1 }, () => click)))
  const wrong: Array<Record<string, unknown>> = [
    without('type'), without('query_id'), without('item_id'),
    { ...click, type: 'view' },
    { ...click, query_id: '' },
    { ...click, query_id: 'x'.repeat(limits.idMaxChars + 1) },
    { ...click, item_id: '' },
    { ...click, item_id: '../keys' },
    { ...click, item_id: 5 },
    { ...click, position: 0 },
    { ...click, position: 1.5 },
    { ...click, position: limits.searchWindowMax + 1 },
    { ...click, consumer_id: 'x'.repeat(limits.consumerIdMaxChars + 1) },
    { ...click, extra: 1 }
  ]
  for (const event of wrong) {
    t.notOk(Value.Check(ClickEventsBody, event), JSON.stringify(event).slice(0, 80))
    t.notOk(Value.Check(ClickEventsBody, [click, event]), `in a list: ${JSON.stringify(event).slice(0, 80)}`)
  }
  t.notOk(Value.Check(ClickEventsBody, 'click'))
  t.ok(Value.Check(ClickEventsResponse, { recorded: 2 }))
})

t.test('search analytics per day: counts, and rates that are null when there is nothing to count', async (t) => {
  const day = { day: '2026-05-01', searches: 4, autocompletes: 1, no_result_rate: 0.25, click_through_rate: 0.5, conversion_rate: 0.25, average_click_position: 2.5 }
  const report = (days: unknown[]) => ({ days: days.length, searches_per_day: days, top_queries: [], no_result_queries: [] })
  t.ok(Value.Check(SearchAnalyticsResponse, report([day])))
  const quiet = { day: '2026-05-02', searches: 0, autocompletes: 0, no_result_rate: null, click_through_rate: null, conversion_rate: null, average_click_position: null }
  t.ok(Value.Check(SearchAnalyticsResponse, report([day, quiet])), 'a quiet day has no rates, not 0 %')
  for (const extra of [{ click_through_rate: 1.5 }, { conversion_rate: -0.1 }, { no_result_rate: '50 %' }, { average_click_position: 0 }]) {
    t.notOk(Value.Check(SearchAnalyticsResponse, report([{ ...day, ...extra }])), JSON.stringify(extra))
  }
  const { click_through_rate: _, ...withoutRate } = day
  t.notOk(Value.Check(SearchAnalyticsResponse, report([withoutRate])), 'every day has every figure')
})

t.test('error body', async (t) => {
  t.ok(Value.Check(ErrorBody, { statusCode: 404, error: 'Chat Not Found', code: 'chat_not_found', message: 'no chat x' }))
  t.notOk(Value.Check(ErrorBody, { statusCode: 200, error: 'x', code: 'x', message: 'x' }))
})

t.test('the error catalog: one title per status code pair, and the README lists every code', async (t) => {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8')
  for (const [code, entry] of Object.entries(errorCatalog)) {
    t.match(code, /^[a-z]+(_[a-z]+)*$/, `${code} is snake_case`)
    t.ok(entry.status >= 400 && entry.status <= 599, `${code} is an error status`)
    t.ok(readme.includes(`| ${entry.status} | \`${code}\` | ${entry.title} |`), `README's Errors table has ${code} with ${entry.status} ${entry.title}`)
  }
  const rows = [...readme.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => m[2])
  t.same(rows.filter((code) => !(code! in errorCatalog)), [], 'and nothing the catalog does not have')
  t.match(errorCatalog.query_not_found, { status: 404, title: 'Query Not Found' }, 'an unknown query_id is refused as a missing resource is')
  const documented = errorResponses('chat_not_found')
  t.same(Object.keys(documented).map(Number), [400, 401, 404, 429, 500, 503], 'a route\'s statuses: the common ones and its own (413 and 415 only where a body is sent)')
  t.same((documented[404] as { properties: { code: { enum: string[] } } }).properties.code.enum, ['chat_not_found'], 'each status lists only its codes')
  t.same((documented[429] as { properties: { code: { enum: string[] } } }).properties.code.enum, ['authentication_throttled', 'rate_limited'])
})

t.test('errorBody: status and title from the catalog, the title as message unless one is given; the per-operation lists name catalog codes', async (t) => {
  t.same(errorBody('not_ready', 'not ready: database (timeout)'), { statusCode: errorCatalog.not_ready.status, error: errorCatalog.not_ready.title, code: 'not_ready', message: 'not ready: database (timeout)' })
  t.same(errorBody('chat_not_found'), { statusCode: 404, error: errorCatalog.chat_not_found.title, code: 'chat_not_found', message: errorCatalog.chat_not_found.title })
  for (const [operation, codes] of Object.entries({ ...chatErrors, ...searchErrors })) {
    for (const code of codes) t.ok(code in errorCatalog, `${operation}: ${code}`)
  }
})
