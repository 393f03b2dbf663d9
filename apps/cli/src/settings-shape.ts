/** What `catalog settings --set` reads, as its help and its refusals say it. */
export const SETTINGS_SHAPE = '{"searchableAttributes":[…],"filterableAttributes":[…],"facetableAttributes":[…],"sortableAttributes"?:[…],"synonyms"?:{"word":["alternative",…]},"stopWords"?:[…],' +
  '"suggestionsMinSearchers"?:3,"suggestionsExcluded"?:[…]}'
