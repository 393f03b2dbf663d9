/** Limits the spec leaves open, decided in ARCHITECTURE.md (decision 4). */
export const limits = {
  userMessageMaxChars: 8000,
  termMaxChars: 1000,
  idMaxChars: 128,
  consumerIdMaxChars: 256,
  /** The comment a customer may send with a rating of a reply (POST /feedback). */
  feedbackCommentMaxChars: 2000,
  /** The allowed origins of one publishable widget key, at most. */
  widgetOriginsMax: 20,
  filterMaxChars: 4096,
  facetsMax: 100,
  /** A facet's name: an attribute path, in a search's `facets` and a facet search's facet_name. */
  facetNameMaxChars: 256,
  /**
   * A facet search's facet_query: the beginning of a facet value. Meilisearch documents no bound,
   * but keeps only about 250 bytes of each value for its facet search.
   */
  facetQueryMaxChars: 256,
  /**
   * Values per facet in a facetDistribution, and hits of a facet search, at most: the most frequent,
   * as Meilisearch's default maxValuesPerFacet (which also bounds its facet search).
   */
  facetValuesMax: 100,
  /** Criteria in a search's `sort`. Meilisearch documents no bound; each criterion is one more key every match is ranked by. */
  sortCriteriaMax: 10,
  /** Attributes in a search's attributes_to_highlight, and in its attributes_to_crop (Meilisearch documents no bound). */
  formatAttributesMax: 100,
  /** A search's crop_length, in words: beyond it a crop is hardly one. */
  cropLengthMax: 1000,
  /** A search's highlight tags and crop marker, each: they are repeated at every match and every cut of every hit. */
  formatMarkerMaxChars: 64,
  /** Keys in a catalog's `synonyms` (Meilisearch documents no bound; they are compiled once per settings). */
  synonymsMax: 1000,
  /** Alternatives of one synonym key: Meilisearch derives at most 50 phrases from a query word. */
  synonymAlternativesMax: 50,
  /** Words in a synonym key, its stop words left out: Meilisearch looks synonyms up for runs of one to three query words. */
  synonymKeyWordsMax: 3,
  /** A synonym key or alternative. */
  synonymMaxChars: 100,
  /** Words in a catalog's `stopWords` (Meilisearch documents no bound; a whole language's list is a few hundred). */
  stopWordsMax: 1000,
  stopWordMaxChars: 64,
  /** Search rules a project keeps (PUT /rules replaces them all); each search checks them all. */
  rulesMax: 1000,
  /** Items one rule pins: more than a results page holds (searchLimitDefault), as few as a person places by hand. */
  rulePinsMax: 50,
  /** Items one rule hides. Each hidden item is one more hit a matching search reads (see README, Rules). */
  ruleHidesMax: 500,
  searchLimitDefault: 20,
  searchLimitMax: 1000,
  searchWindowMax: 10_000,
  /** The weight of the semantic side of a hybrid catalog search when the request gives none (the spec's 0.7). */
  semanticRatioDefault: 0.7,
  autocompleteLimitDefault: 10,
  autocompleteLimitMax: 100,
  /**
   * Distinct searchers (consumers, or client addresses without a consumer_id) who must have made a
   * search before autocomplete suggests it, unless a catalog's settings say otherwise
   * (suggestionsMinSearchers): one shopper's searches are never suggested to the others.
   */
  suggestionsMinSearchersDefault: 3,
  /** The highest suggestionsMinSearchers: a search keeps the keyed hashes of that many of its searchers at most. */
  suggestionsMinSearchersMax: 100,
  /** Searches a catalog's suggestionsExcluded may list. */
  suggestionsExcludedMax: 1000,
  /**
   * Distinct searches the embedded engine keeps per catalog for autocomplete; past it, the least
   * searched (the least recently searched among equals) are forgotten, a thousand at a time.
   */
  popularSearchesMax: 100_000,
  /**
   * Events in one POST /events list: a shopper's session sent at once, or a client's queue of them;
   * at about 1 KiB for the largest event, as many as the 1 MiB body holds.
   */
  clickEventsMax: 1000,
  /** A page of GET /suggestions/candidates. */
  candidatesLimitDefault: 20,
  candidatesLimitMax: 1000,
  bodyMaxBytes: 1024 * 1024,
  /** Arrays and objects nested deeper than this in a body are refused (a catalog item's own nesting included). */
  jsonMaxDepth: 32
} as const
