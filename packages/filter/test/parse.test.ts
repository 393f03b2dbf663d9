import t from 'tap'
import { FILTER_LIMITS, FilterError, parseFilter, type CompareOperator, type FilterNode } from '../src/index.js'

const cmp = (attribute: string, operator: CompareOperator, value: string): FilterNode => ({ type: 'compare', attribute, operator, value })
const not = (child: FilterNode): FilterNode => ({ type: 'not', child })
const and = (...children: FilterNode[]): FilterNode => ({ type: 'and', children })
const or = (...children: FilterNode[]): FilterNode => ({ type: 'or', children })
const inList = (attribute: string, ...values: string[]): FilterNode => ({ type: 'in', attribute, values })

/** The error parseFilter throws, or a failure when it throws none. */
function parseError (text: string): FilterError {
  try {
    parseFilter(text)
  } catch (error) {
    if (error instanceof FilterError) return error
    throw error
  }
  throw new Error(`no error for ${JSON.stringify(text)}`)
}

t.test('empty and blank filters are no filter', async (t) => {
  for (const text of ['', ' ', '\n\t  ']) t.equal(parseFilter(text), null, JSON.stringify(text))
})

t.test('each operator', async (t) => {
  const cases: Array<[string, FilterNode]> = [
    ['genres = horror', cmp('genres', '=', 'horror')],
    ['genres != horror', cmp('genres', '!=', 'horror')],
    ['rating.users > 85', cmp('rating.users', '>', '85')],
    ['rating.users >= 85', cmp('rating.users', '>=', '85')],
    ['rating.users < 85', cmp('rating.users', '<', '85')],
    ['rating.users <= 85', cmp('rating.users', '<=', '85')],
    ['rating.users 80 TO 89', { type: 'range', attribute: 'rating.users', from: '80', to: '89' }],
    ['price -10.5 TO 1e3', { type: 'range', attribute: 'price', from: '-10.5', to: '1e3' }],
    ['release_date EXISTS', { type: 'exists', attribute: 'release_date' }],
    ['release_date NOT EXISTS', not({ type: 'exists', attribute: 'release_date' })],
    ['overview IS NULL', { type: 'isNull', attribute: 'overview' }],
    ['overview IS NOT NULL', not({ type: 'isNull', attribute: 'overview' })],
    ['overview IS EMPTY', { type: 'isEmpty', attribute: 'overview' }],
    ['overview IS NOT EMPTY', not({ type: 'isEmpty', attribute: 'overview' })],
    ['genres IN [horror, comedy]', inList('genres', 'horror', 'comedy')],
    ['genres NOT IN [horror, comedy]', not(inList('genres', 'horror', 'comedy'))],
    ['genres IN []', inList('genres')],
    ['genres IN [horror,]', inList('genres', 'horror')],
    [' colour IN [  green , blue , ]', inList('colour', 'green', 'blue')],
    ['colour IN[green]', inList('colour', 'green')],
    ['name CONTAINS kef', { type: 'contains', attribute: 'name', value: 'kef' }],
    ['name NOT CONTAINS kef', not({ type: 'contains', attribute: 'name', value: 'kef' })],
    ['name STARTS WITH kef', { type: 'startsWith', attribute: 'name', value: 'kef' }],
    ['name NOT STARTS WITH kef', not({ type: 'startsWith', attribute: 'name', value: 'kef' })],
    ['name  STARTS \n WITH  kef', { type: 'startsWith', attribute: 'name', value: 'kef' }],
    ['NOT genres = horror', not(cmp('genres', '=', 'horror'))],
    ['NOT release_date EXISTS', not({ type: 'exists', attribute: 'release_date' })],
    ['NOT genres IN [a]', not(inList('genres', 'a'))]
  ]
  for (const [text, ast] of cases) t.strictSame(parseFilter(text), ast, text)
})

t.test('operators need no spaces around them', async (t) => {
  const cases: Array<[string, FilterNode]> = [
    ['price>10', cmp('price', '>', '10')],
    ['price>=10', cmp('price', '>=', '10')],
    ['price!=10', cmp('price', '!=', '10')],
    ['a="b c"', cmp('a', '=', 'b c')],
    ["'a'='b'", cmp('a', '=', 'b')],
    ['(a=1)OR(b=2)', or(cmp('a', '=', '1'), cmp('b', '=', '2'))],
    ['NOT(a=1)', not(cmp('a', '=', '1'))],
    ['a IN[1,2]', inList('a', '1', '2')]
  ]
  for (const [text, ast] of cases) t.strictSame(parseFilter(text), ast, text)
})

t.test('precedence: NOT binds tighter than AND, AND tighter than OR; left to right', async (t) => {
  const a = cmp('a', '=', '1')
  const b = cmp('b', '=', '2')
  const c = cmp('c', '=', '3')
  const d = cmp('d', '=', '4')
  const cases: Array<[string, FilterNode]> = [
    ['a = 1 AND b = 2', and(a, b)],
    ['a = 1 OR b = 2', or(a, b)],
    ['a = 1 OR b = 2 AND c = 3', or(a, and(b, c))],
    ['a = 1 AND b = 2 OR c = 3', or(and(a, b), c)],
    ['a = 1 AND b = 2 AND c = 3 OR d = 4', or(and(a, b, c), d)],
    ['a = 1 OR b = 2 OR c = 3', or(a, b, c)],
    ['(a = 1 OR b = 2) AND c = 3', and(or(a, b), c)],
    ['a = 1 AND (b = 2 OR c = 3)', and(a, or(b, c))],
    ['NOT a = 1 AND b = 2', and(not(a), b)],
    ['NOT a = 1 OR b = 2', or(not(a), b)],
    ['NOT (a = 1 OR b = 2)', not(or(a, b))],
    ['a = 1 AND NOT b = 2', and(a, not(b))],
    ['NOT NOT a = 1', a],
    ['NOT NOT NOT a = 1', not(a)],
    ['NOT NOT (NOT NOT a = 1)', a],
    ['((a = 1))', a],
    ['(a = 1 AND b = 2) AND c = 3', and(and(a, b), c)],
    ['a = 1 OR (b = 2 OR c = 3)', or(a, or(b, c))],
    ['x = 1 OR NOT (colour IN [green, blue] OR color = green)', or(cmp('x', '=', '1'), not(or(inList('colour', 'green', 'blue'), cmp('color', '=', 'green'))))],
    ['a IS NOT NULL AND b NOT IN [1] OR c NOT EXISTS', or(and(not({ type: 'isNull', attribute: 'a' }), not(inList('b', '1'))), not({ type: 'exists', attribute: 'c' }))]
  ]
  for (const [text, ast] of cases) t.strictSame(parseFilter(text), ast, text)
})

t.test('keywords are case-insensitive', async (t) => {
  const cases: Array<[string, FilterNode]> = [
    ['a = 1 and b = 2 or c = 3', or(and(cmp('a', '=', '1'), cmp('b', '=', '2')), cmp('c', '=', '3'))],
    ['not a = 1', not(cmp('a', '=', '1'))],
    ['a not in [x]', not(inList('a', 'x'))],
    ['a In [x]', inList('a', 'x')],
    ['a exists', { type: 'exists', attribute: 'a' }],
    ['a Not Exists', not({ type: 'exists', attribute: 'a' })],
    ['a is null', { type: 'isNull', attribute: 'a' }],
    ['a is not empty', not({ type: 'isEmpty', attribute: 'a' })],
    ['a contains x', { type: 'contains', attribute: 'a', value: 'x' }],
    ['a starts with x', { type: 'startsWith', attribute: 'a', value: 'x' }],
    ['a 1 to 2', { type: 'range', attribute: 'a', from: '1', to: '2' }]
  ]
  for (const [text, ast] of cases) t.strictSame(parseFilter(text), ast, text)
})

t.test('values: words, single and double quotes, escapes', async (t) => {
  const cases: Array<[string, string]> = [
    ['a = horror', 'horror'],
    ['a = 10.5', '10.5'],
    ['a = -3', '-3'],
    ['a = 2024-01-31', '2024-01-31'],
    ['a = snake_case.with-dash', 'snake_case.with-dash'],
    ["a = 'Jordan Peele'", 'Jordan Peele'],
    ['a = "Tim Burton"', 'Tim Burton'],
    ['a = ""', ''],
    ["a = ''", ''],
    ['a = " spaces "', ' spaces '],
    ['a = "NOT"', 'NOT'],
    ["a = 'AND'", 'AND'],
    ['a = "cha)nnel"', 'cha)nnel'],
    ["a = 'cha\"nnel'", 'cha"nnel'],
    ['a = "cha\'nnel"', "cha'nnel"],
    ['a = "Hello \\"world\\""', 'Hello "world"'],
    ["a = 'I\\'m'", "I'm"],
    ['a = "back\\\\slash"', 'back\\slash'],
    ["a = 'foo\\\\'", 'foo\\'],
    ['a = "a\\nb\\tc\\rd"', 'a\nb\tc\rd'],
    ['a = "\\x41\\u0042\\u{1F600}"', 'AB😀'],
    ['a = "\\/"', '/'],
    ['a = "line\nbreak"', 'line\nbreak'],
    ["a = ' OR 1=1 --'", ' OR 1=1 --'],
    ['a = "100%_off"', '100%_off'],
    ['a = café', 'café'],
    ['a = 日本語', '日本語'],
    ['a = "😀"', '😀'],
    ['a = cafe\u0301', 'cafe\u0301']
  ]
  for (const [text, value] of cases) t.strictSame(parseFilter(text), cmp('a', '=', value), text)
})

t.test('attributes: dot paths, quoted names, unicode', async (t) => {
  const cases: Array<[string, string]> = [
    ['brand.name = x', 'brand.name'],
    ['variants.color.code = x', 'variants.color.code'],
    ['"dog race" = x', 'dog race'],
    ["'dog race' = x", 'dog race'],
    ['"brand.name" = x', 'brand.name'],
    ['"AND" = x', 'AND'],
    ['_private = x', '_private'],
    ['.private = x', '.private'],
    ['名前 = x', '名前'],
    ['"a = b" = x', 'a = b']
  ]
  for (const [text, attribute] of cases) t.strictSame(parseFilter(text), cmp(attribute, '=', 'x'), text)
})

t.test('positions: non-enumerable, in code points, where the condition starts', async (t) => {
  const node = parseFilter('  a = 1 AND NOT b EXISTS OR c IN [1]')!
  t.equal(Object.keys(node).includes('position'), false, 'position is not an own enumerable key')
  t.equal(JSON.stringify(node).includes('position'), false)
  t.equal(node.type, 'or')
  if (node.type !== 'or') return
  const [first, second] = node.children
  t.equal(first!.position, 2)
  if (first!.type !== 'and') return t.fail('and expected')
  t.equal(first!.children[0]!.position, 2)
  t.equal(first!.children[1]!.position, 12, 'NOT starts at 12')
  if (first!.children[1]!.type !== 'not') return t.fail('not expected')
  t.equal(first!.children[1]!.child.position, 16)
  t.equal(second!.position, 28)
  t.equal(parseFilter('"😀😀" = 1 OR b = 2')!.type, 'or')
  const emoji = parseFilter('"😀😀" = 1 OR b = 2')
  if (emoji?.type !== 'or') return
  t.equal(emoji.children[1]!.position, 12, 'emoji count as one character each')
  const negated = parseFilter('x NOT IN [1]')!
  t.equal(negated.position, 0)
})

t.test('syntax errors: position and message', async (t) => {
  const cases: Array<[string, number, string]> = [
    ['price > ', 8, 'Was expecting a value but instead got nothing, at position 8: `price > `'],
    ['price >', 7, 'Was expecting a value but instead got nothing, at position 7: `price >`'],
    ['price = AND', 8, 'Was expecting a value but instead got `AND`, which is a reserved keyword. To use `AND` as a field name or a value, surround it by quotes, at position 8: `price = AND`'],
    ['price = in', 8, 'Was expecting a value but instead got `in`, which is a reserved keyword. To use `in` as a field name or a value, surround it by quotes, at position 8: `price = in`'],
    ['price = )', 8, 'Was expecting a value but instead got `)`, at position 8: `price = )`'],
    ['price > = 3', 8, 'Was expecting a value but instead got `=`, at position 8: `price > = 3`'],
    ['name = 🦀 AND language = rust', 7, 'Was expecting a value but instead got `🦀`, at position 7: `name = 🦀 AND language = rust`'],
    ['a = b@c', 5, 'Found unexpected characters at the end of the filter: `@c`. You probably forgot an `OR` or an `AND` rule, or the quotes around a value that contains spaces, at position 5: `a = b@c`'],
    ['AND = 1', 0, '`AND` is a reserved keyword and thus cannot be used as a field name unless it is put inside quotes. Use "AND" or \'AND\' instead, at position 0: `AND = 1`'],
    ['price', 5, 'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH` or `NOT STARTS WITH` after `price`, but instead got nothing, at position 5: `price`'],
    ['price AND b = 1', 6, 'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH` or `NOT STARTS WITH` after `price`, but instead got `AND`, at position 6: `price AND b = 1`'],
    ['a = 1 b = 2', 6, 'Found unexpected characters at the end of the filter: `b = 2`. You probably forgot an `OR` or an `AND` rule, or the quotes around a value that contains spaces, at position 6: `a = 1 b = 2`'],
    ['a = 1 AND', 9, 'Was expecting a condition (such as `genres = horror`) after `AND` but instead got nothing, at position 9: `a = 1 AND`'],
    ['a = 1 OR', 8, 'Was expecting a condition (such as `genres = horror`) after `OR` but instead got nothing, at position 8: `a = 1 OR`'],
    ['NOT', 3, 'Was expecting a condition (such as `genres = horror`) after `NOT` but instead got nothing, at position 3: `NOT`'],
    ['a = 1 AND AND b = 2', 10, '`AND` is a reserved keyword and thus cannot be used as a field name unless it is put inside quotes. Use "AND" or \'AND\' instead, at position 10: `a = 1 AND AND b = 2`'],
    ['()', 1, 'Was expecting a condition (such as `genres = horror`) after `(` but instead got `)`, at position 1: `()`'],
    ['(a = 1', 0, 'Expression `(a = 1` is missing the following closing delimiter: `)`, at position 0: `(a = 1`'],
    ['((a = 1)', 0, 'Expression `((a = 1)` is missing the following closing delimiter: `)`, at position 0: `((a = 1)`'],
    ['(a = 1 b = 2)', 7, 'Was expecting `AND`, `OR` or the `)` closing the `(` at position 0, but instead got `b`, at position 7: `(a = 1 b = 2)`'],
    ['a = 1)', 5, 'Found a closing parenthesis `)` that does not match any opening parenthesis, at position 5: `a = 1)`'],
    ["a = 'abc", 4, "Expression `'abc` is missing the following closing delimiter: `'`, at position 4: `a = 'abc`"],
    ['a = "abc', 4, 'Expression `"abc` is missing the following closing delimiter: `"`, at position 4: `a = "abc`'],
    ['a = "abc\\"', 4, 'Expression `"abc\\"` is missing the following closing delimiter: `"`, at position 4: `a = "abc\\"`'],
    ['a = "abc\\', 4, 'Expression `"abc\\` is missing the following closing delimiter: `"`, at position 4: `a = "abc\\`'],
    ["'dog race = x", 0, "Expression `'dog race = x` is missing the following closing delimiter: `'`, at position 0: `'dog race = x`"],
    ['a = "\\q"', 5, 'Malformed value: unknown escape sequence `\\q`; use `\\\\` for a backslash, at position 5: `a = "\\q"`'],
    ['a = "\\xZZ"', 5, 'Malformed value: the escape sequence `\\x` needs two hexadecimal digits, in `\\xZZ`, at position 5: `a = "\\xZZ"`'],
    ['a = "\\u{110000}"', 5, 'Malformed value: the escape sequence `\\u{...}` needs 1 to 6 hexadecimal digits naming a Unicode character, in `\\u{110000}`, at position 5: `a = "\\u{110000}"`'],
    ['a IN 1', 5, 'Expected `[` after `IN` keyword but instead got `1`, at position 5: `a IN 1`'],
    ['a IN [1 2]', 8, 'Expected only comma-separated values inside `IN[..]` but instead found `2`, at position 8: `a IN [1 2]`'],
    ['a IN [1, 2', 10, 'Expected matching `]` after the list of values given to `IN[` (opened at position 5) but instead got nothing, at position 10: `a IN [1, 2`'],
    ['a IN [1,, 2]', 8, 'Expected only comma-separated values inside `IN[..]` but instead found `,`, at position 8: `a IN [1,, 2]`'],
    ['a IN [OR]', 6, 'Expected only comma-separated values inside `IN[..]` but instead found `OR`, which is a keyword. To use `OR` as a value, surround it by quotes, at position 6: `a IN [OR]`'],
    ['a NOT b', 6, 'Was expecting `IN`, `EXISTS`, `CONTAINS` or `STARTS WITH` after `NOT` but instead got `b`, at position 6: `a NOT b`'],
    ['a IS b', 5, 'Was expecting `NULL`, `NOT NULL`, `EMPTY` or `NOT EMPTY` after `IS` but instead got `b`, at position 5: `a IS b`'],
    ['a IS NOT b', 9, 'Was expecting `NULL` or `EMPTY` after `IS NOT` but instead got `b`, at position 9: `a IS NOT b`'],
    ['a STARTS b', 9, 'Was expecting `WITH` after `STARTS` but instead got `b`, at position 9: `a STARTS b`'],
    ['a CONTAINS', 10, 'Was expecting a value but instead got nothing, at position 10: `a CONTAINS`'],
    ['a 1 TO', 6, 'Was expecting a value but instead got nothing, at position 6: `a 1 TO`'],
    ['dog race = x', 9, 'Was expecting `TO` after `dog race` (a range is written `attribute from TO to`) but instead got `=`. An attribute name or a value that contains spaces must be put inside quotes, at position 9: `dog race = x`'],
    ['😀 = x', 0, 'Was expecting an attribute name but instead got `😀`. An attribute name that contains characters other than letters, digits, `_`, `-` and `.` must be put inside quotes, at position 0: `😀 = x`'],
    ['"😀" = x y', 8, 'Found unexpected characters at the end of the filter: `y`. You probably forgot an `OR` or an `AND` rule, or the quotes around a value that contains spaces, at position 8: `"😀" = x y`'],
    ['a ! b', 2, 'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH` or `NOT STARTS WITH` after `a`, but instead got `!`, at position 2: `a ! b`'],
    ['a == b', 3, 'Was expecting a value but instead got `=`, at position 3: `a == b`'],
    ['a = 1; DROP TABLE fields', 5, 'Found unexpected characters at the end of the filter: `; DROP TABLE fields`. You probably forgot an `OR` or an `AND` rule, or the quotes around a value that contains spaces, at position 5: `a = 1; DROP TABLE fields`'],
    ["note = ' OR 1=1 --", 7, "Expression `' OR 1=1 --` is missing the following closing delimiter: `'`, at position 7: `note = ' OR 1=1 --`"],
    ['_geoRadius(45.4, 9.2, 2000)', 0, '`_geoRadius` is a geosearch filter, which this search service does not support, at position 0: `_geoRadius(45.4, 9.2, 2000)`'],
    ['a = 1 OR _geoBoundingBox([1, 2], [3, 4])', 9, '`_geoBoundingBox` is a geosearch filter, which this search service does not support, at position 9: `a = 1 OR _geoBoundingBox([1, 2], [3, 4])`'],
    ['a = "x\ny', 4, 'Expression `"x\\ny` is missing the following closing delimiter: `"`, at position 4: `a = "x\\ny`']
  ]
  for (const [text, position, message] of cases) {
    const error = parseError(text)
    t.equal(error.position, position, `position of ${JSON.stringify(text)}`)
    t.equal(error.message, message, `message of ${JSON.stringify(text)}`)
    t.equal(error.name, 'FilterError')
    t.ok(error instanceof Error)
  }
})

t.test('the first error wins: an unclosed quote after an earlier mistake is not what is reported', async (t) => {
  t.equal(parseError("a = AND b = 'x").position, 4)
})

t.test('messages about long filters show an excerpt around the position', async (t) => {
  const text = 'a = 1 AND '.repeat(20) + 'b = '
  const error = parseError(text)
  t.equal(error.position, text.length)
  t.match(error.message, /^Was expecting a value but instead got nothing, at position 204: `….{40}`$/)
  const middle = parseError('a = 1 AND '.repeat(10) + 'b = = 2 AND ' + 'c = 3 AND '.repeat(10) + 'd = 4')
  t.equal(middle.message, 'Was expecting a value but instead got `=`, at position 104: `…1 AND a = 1 AND a = 1 AND a = 1 AND b = = 2 AND c = 3 AND c = 3 AND c …`')
})

t.test('hostile input', async (t) => {
  t.test('too long', async (t) => {
    const error = parseError('a'.repeat(FILTER_LIMITS.maxLength + 1))
    t.equal(error.position, FILTER_LIMITS.maxLength)
    t.match(error.message, /too long/)
  })

  t.test('a huge value', async (t) => {
    const error = parseError(`a = "${'x'.repeat(FILTER_LIMITS.maxValueLength + 1)}"`)
    t.equal(error.position, 4)
    t.match(error.message, /^The value `x{40}…` is too long: 10001 characters, the maximum is 10000/)
    t.strictSame(parseFilter(`a = "${'x'.repeat(FILTER_LIMITS.maxValueLength)}"`), cmp('a', '=', 'x'.repeat(FILTER_LIMITS.maxValueLength)))
  })

  t.test('deep nesting is refused, not a stack overflow', async (t) => {
    const max = FILTER_LIMITS.maxDepth
    t.strictSame(parseFilter('('.repeat(max) + 'a = 1' + ')'.repeat(max)), cmp('a', '=', '1'))
    const parens = parseError('('.repeat(max + 1) + 'a = 1' + ')'.repeat(max + 1))
    t.equal(parens.position, max)
    t.match(parens.message, /^The filter is nested too deeply: more than 64 levels/)
    t.equal(parseError('('.repeat(50_000)).position, max)
    t.equal(parseError('NOT '.repeat(20_000) + 'a = 1').position, max * 4)
    t.equal(parseError('(NOT '.repeat(10_000)).position, 160)
    t.strictSame(parseFilter('NOT '.repeat(max) + 'a = 1'), cmp('a', '=', '1'))
  })

  t.test('too many conditions or values', async (t) => {
    const many = Array.from({ length: FILTER_LIMITS.maxConditions + 1 }, (_, i) => `a = ${i}`).join(' OR ')
    const error = parseError(many)
    t.match(error.message, /^The filter has too many conditions: the maximum is 1000/)
    t.equal(error.position, many.lastIndexOf('a = 1000'))
    const list = `a IN [${Array.from({ length: FILTER_LIMITS.maxValues }, (_, i) => i).join(',')}]`
    t.equal((parseFilter(list) as { values: string[] }).values.length, FILTER_LIMITS.maxValues)
    t.match(parseError(list.replace(']', ',1]')).message, /too many values/)
  })

  t.test('linear time on large inputs', async (t) => {
    const inputs = [
      `a IN [${Array.from({ length: 9000 }, (_, i) => `"v${i}"`).join(', ')}]`,
      Array.from({ length: 1000 }, (_, i) => `(a${i} = "x" OR b != ${i})`).join(' AND '),
      'a = "' + 'x'.repeat(9000) + '" AND '.repeat(1) + 'b = 1' + ' '.repeat(80_000),
      '"' + '\\"'.repeat(49_000) + '"'
    ]
    for (const input of inputs) {
      const start = performance.now()
      try { parseFilter(input) } catch (error) { if (!(error instanceof FilterError)) throw error }
      t.ok(performance.now() - start < 500, `${input.length} characters in ${Math.round(performance.now() - start)} ms`)
    }
  })

  t.test('unbalanced brackets and quotes', async (t) => {
    for (const text of ['(', ')', '[', ']', '"', "'", 'a IN [', 'a IN ]', '((a = 1) OR (b = 2)', 'a = "x" OR "', '(a = [1])', 'a = 1 OR (b = 2))', '"\'', '\\', 'a = \\"x\\"']) {
      const error = parseError(text)
      t.ok(error.position >= 0 && error.position <= text.length, `${text}: ${error.message}`)
    }
  })

  t.test('unicode and control characters', async (t) => {
    t.strictSame(parseFilter('名前 = 値'), cmp('名前', '=', '値'))
    t.strictSame(parseFilter('a = "\u0000\u202e\ud83d"'), cmp('a', '=', '\u0000\u202e\ud83d'))
    t.strictSame(parseFilter('a\u00a0=\u3000b'), cmp('a', '=', 'b'), 'unicode spaces separate tokens')
    const error = parseError('a = "x" \u0001')
    t.equal(error.message, 'Found unexpected characters at the end of the filter: `\\u{1}`. You probably forgot an `OR` or an `AND` rule, or the quotes around a value that contains spaces, at position 8: `a = "x" \\u{1}`')
  })
})
