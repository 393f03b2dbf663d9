import t from 'tap'
import { highlightPieces } from '../src/highlight.js'

t.test('the text between <em> and </em> is marked, the rest is not', async (t) => {
  t.same(highlightPieces('Summit <em>lantern</em> for <em>camp</em>s'), [
    { text: 'Summit ', marked: false },
    { text: 'lantern', marked: true },
    { text: ' for ', marked: false },
    { text: 'camp', marked: true },
    { text: 's', marked: false }
  ])
  t.same(highlightPieces('no match'), [{ text: 'no match', marked: false }])
})

t.test('escaped markup of the item comes back as text, never as a tag', async (t) => {
  const pieces = highlightPieces('&lt;em&gt;x&lt;/em&gt; &lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt; Tom&#39;s &amp;amp; <em>lamp</em>')
  t.same(pieces, [
    { text: '<em>x</em> <script>alert("1")</script> Tom\'s &amp; ', marked: false },
    { text: 'lamp', marked: true }
  ])
})

t.test('a stray closing tag ends nothing it did not open', async (t) => {
  t.same(highlightPieces('a</em>b<em>c'), [{ text: 'a', marked: false }, { text: 'b', marked: false }, { text: 'c', marked: true }])
})
