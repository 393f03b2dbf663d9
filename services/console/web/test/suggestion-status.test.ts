import t from 'tap'
import { suggestionStatusText } from '../src/suggestion-status.js'

t.test('a popular search\'s status in words, "no keyword results" only when its keyword search found none', async (t) => {
  t.equal(suggestionStatusText({ status: 'suggested', hits: 4 }), 'Suggested')
  t.equal(suggestionStatusText({ status: 'few_searchers', hits: null }), 'Too few shoppers')
  t.equal(suggestionStatusText({ status: 'excluded', hits: 0 }), 'Excluded')
  t.equal(suggestionStatusText({ status: 'no_keyword_results', hits: 0 }), 'No keyword results')
  t.equal(suggestionStatusText({ status: 'no_keyword_results', hits: null }), 'Keyword results not known yet', 'not known is not none')
})
