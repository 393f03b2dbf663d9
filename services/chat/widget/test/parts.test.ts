import t from 'tap'
import { readConfig } from '../src/config.js'
import { segments, safeHref } from '../src/links.js'
import { langOf, languages, texts } from '../src/texts.js'

const KEY = 'csk_pub_' + 'a1B2'.repeat(10)
const SRC = 'https://chat.example/widget/v1/loader.js'
const attrs = (a: Record<string, string>) => (name: string) => a[name] ?? null
const isColor = (c: string) => /^#[0-9a-f]{3,8}$|^[a-z]+$/i.test(c)

t.test('the script tag\'s attributes, each checked', async (t) => {
  t.same(readConfig(attrs({ 'data-key': KEY }), SRC, 'de-AT', isColor, 'abc'), {
    key: KEY, api: 'https://chat.example', panelUrl: 'https://chat.example/widget/v1/panel.js?v=abc', position: 'right', lang: 'de'
  }, 'defaults: the service the loader came from, on the right, the page\'s language')
  t.match(readConfig(attrs({ 'data-key': KEY }), 'https://shop.example/chat/widget/v1/loader.js', null, isColor, 'v'), { api: 'https://shop.example/chat' }, 'behind a gateway\'s path')
  t.match(readConfig(attrs({ 'data-key': KEY, 'data-api': 'https://api.example/chat/', 'data-color': '#c00', 'data-position': 'LEFT', 'data-greeting': ' Hi! ', 'data-lang': 'fr' }), SRC, 'en', isColor, 'v'),
    { api: 'https://api.example/chat', color: '#c00', position: 'left', greeting: 'Hi!', lang: 'fr' })
  t.same(readConfig(attrs({ 'data-key': 'csk_chat_' + 'a'.repeat(40) }), SRC, null, isColor, 'v'), { error: 'data-key must be a publishable widget key (csk_pub_…)' }, 'a secret key is refused')
  t.ok('error' in readConfig(attrs({ 'data-key': KEY, 'data-api': 'javascript:alert(1)' }), SRC, null, isColor, 'v'), 'data-api must be http(s)')
  const hostile = readConfig(attrs({ 'data-key': KEY, 'data-color': 'red;}body{display:none', 'data-position': 'top', 'data-lang': 'xx' }), SRC, null, isColor, 'v')
  t.notOk('error' in hostile && 'color' in hostile, 'a colour that is not one is dropped')
  t.match(hostile, { position: 'right', lang: 'en' })
  t.match(readConfig(attrs({ 'data-key': KEY, 'data-consumer-id': 'cust-7', 'data-consumer-hmac': 'ab'.repeat(32) }), SRC, null, isColor, 'v'), { identity: { consumerId: 'cust-7', hmac: 'ab'.repeat(32) } })
  t.notOk('identity' in (readConfig(attrs({ 'data-key': KEY, 'data-consumer-id': 'cust-7', 'data-consumer-hmac': 'nothex' }), SRC, null, isColor, 'v') as object), 'an HMAC that is not one is left out')
})

t.test('links: only http(s), sentence punctuation left out', async (t) => {
  t.equal(safeHref('javascript:alert(1)'), undefined)
  t.equal(safeHref('data:text/html,x'), undefined)
  t.equal(safeHref('https://shop.example/a b'), 'https://shop.example/a%20b')
  t.same(segments('See https://shop.example/help#x. Thanks'), [{ text: 'See ' }, { text: 'https://shop.example/help#x', href: 'https://shop.example/help#x' }, { text: '. Thanks' }])
  t.same(segments('<img src=x onerror=alert(1)>'), [{ text: '<img src=x onerror=alert(1)>' }], 'markup stays text')
})

t.test('every language has every text', async (t) => {
  for (const lang of languages) t.same(Object.keys(texts[lang]).sort(), Object.keys(texts.en).sort(), lang)
  t.equal(langOf(null, 'es-MX'), 'es')
  t.equal(langOf('DE', 'fr'), 'de')
  t.equal(langOf('it', 'it'), 'en')
})
