// ftsTerms (changes.ts) tokenizes a write's texts in one row of a scratch table without positions.
// Its terms must be exactly those the keyword index holds for the same texts, each in a row of its
// own: what the change log hands to every reader's vocabulary.
import t from 'tap'
import Database from 'better-sqlite3'
import { productsOf } from '../catalog/generate.js'
import { ftsTerms } from '../src/engines/embedded/changes.js'
import { FTS_TOKENIZER } from '../src/engines/embedded/fts.js'

/** The terms of a full keyword index (prefix indexes, one row per text), as the index itself keeps them. */
function indexTerms (texts: string[]): string[] {
  const db = new Database(':memory:')
  try {
    db.exec(`CREATE VIRTUAL TABLE fts USING fts5(c0, prefix='2 3 4', tokenize='${FTS_TOKENIZER}');
      CREATE VIRTUAL TABLE fts_vocab USING fts5vocab(fts, 'row')`)
    const insert = db.prepare('INSERT INTO fts (c0) VALUES (?)')
    for (const text of texts) insert.run(text)
    return db.prepare('SELECT term FROM fts_vocab').pluck().all() as string[]
  } finally {
    db.close()
  }
}

const hostile = [
  'Crème brûlée torch', 'CAFÉ', 'naïve-façade', 'foo', 'bar', 'ends with a word', 'starts the next',
  'tab\tseparated\rcarriage', 'line one\nline two', '', '   ', 'x', 'Straße', 'ǅemal', '東京 タワー',
  'emoji 🙂 between', 'numbers 4k 1080p 2.5mm', "it's o'clock", 'a"quote"b', '\u00a0nbsp\u2003em',
  'ﬁne ligature', 'ＦＵＬＬ width', 'trailing newline\n', '\nleading newline', 'lone \ud800 surrogate'
]

t.test('the terms of hostile texts are exactly the index\'s', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  t.same(ftsTerms(db, hostile).sort(), indexTerms(hostile).sort())
  // Texts are not run together: the last word of one and the first of the next stay two terms.
  t.notOk(ftsTerms(db, ['foo', 'bar']).includes('foobar'))
  t.same(ftsTerms(db, ['foo', 'bar']).sort(), ['bar', 'foo'])
  t.same(ftsTerms(db, []), [])
})

t.test('the terms of a catalog\'s texts are exactly the index\'s, call after call', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  const texts = [...productsOf(600, 3)].map((p) => [p.title, p.brand, p.description, ...p.tags].join(' '))
  for (let at = 0; at < texts.length; at += 200) {
    const slice = texts.slice(at, at + 200)
    // Each call sees only its own texts: the scratch table is emptied between calls.
    t.same(ftsTerms(db, slice).sort(), indexTerms(slice).sort(), `texts ${at}–${at + 199}`)
  }
})
