import { lookup as dnsLookup } from 'node:dns'
import t from 'tap'
import { guardedLookup, isPublicAddress, type LookupFunction } from '@chatsearch/shell'
import { crawl, type FetchedPage } from '../src/knowledge/crawl/crawl.js'
import { page, paths, redirect, startSite } from './crawl-site.js'

t.test('isPublicAddress refuses every internal range, in IPv4 and IPv6', async (t) => {
  const internal = [
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1',
    '169.254.169.254', '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '239.255.255.250',
    '255.255.255.255', '192.0.2.1', '198.18.0.1', '240.0.0.1',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'fec0::1', '2001:db8::1',
    '::ffff:127.0.0.1', '::ffff:10.1.2.3', '::ffff:169.254.169.254', '::ffff:7f00:1',
    '64:ff9b::127.0.0.1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '2002:c0a8:101::1', '2001::1'
  ]
  const external = ['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1']
  for (const ip of internal) t.equal(isPublicAddress(ip), false, `${ip} is internal`)
  for (const ip of external) t.equal(isPublicAddress(ip), true, `${ip} is public`)
  t.equal(isPublicAddress('not-an-ip'), false)
})

/** Resolves the given names as told, anything else as the system does. */
function fakeDns (names: Record<string, string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const addresses = names[hostname]
    if (addresses === undefined) return (dnsLookup as LookupFunction)(hostname, options, callback)
    const all = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
    if (options.all === true) callback(null, all)
    else callback(null, all[0]!.address, all[0]!.family)
  }
}

t.test('the guarded lookup refuses a name when any of its addresses is internal', async (t) => {
  const lookup = guardedLookup({ allowPrivateNetworks: false, allowHosts: [] }, fakeDns({
    'public.test': ['93.184.216.34', '2606:2800:220:1::1'],
    'mixed.test': ['93.184.216.34', '10.0.0.5'],
    'mapped.test': ['::ffff:192.168.0.1']
  }))
  const resolve = async (name: string, all: boolean) => await new Promise<unknown>((resolve, reject) => {
    lookup(name, { all }, (err, address, family) => { if (err !== null) reject(err); else resolve(all ? address : { address, family }) })
  })
  t.same(await resolve('public.test', false), { address: '93.184.216.34', family: 4 })
  t.same(await resolve('public.test', true), [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800:220:1::1', family: 6 }])
  await t.rejects(resolve('mixed.test', true), { code: 'ERR_ADDRESS_REFUSED', message: /mixed\.test resolves to 10\.0\.0\.5, an internal address \(private\)/ })
  await t.rejects(resolve('mapped.test', false), { message: /mapped\.test resolves to ::ffff:192\.168\.0\.1, an internal address \(private\)/ })
})

t.test('with private networks refused, a local start URL fails with a clear error and sends nothing', async (t) => {
  const site = await startSite(t, { '/': page('<title>Home</title>') })
  for (const start of [`${site.origin}/`, `http://localhost:${site.port}/`, 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://0x7f.1/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/']) {
    await t.rejects(crawl(start, {}, async () => {}), { code: 'invalid_request', message: /cannot be crawled: .*an internal address .*CRAWL_ALLOW_PRIVATE_NETWORKS=true/ }, start)
  }
  // A name that resolves to the loopback is refused when the socket connects.
  await t.rejects(crawl(`http://intranet.test:${site.port}/`, { lookup: fakeDns({ 'intranet.test': ['127.0.0.1'] }) }, async () => {}),
    { code: 'invalid_request', message: `http://intranet.test:${site.port} cannot be crawled: refused: intranet.test resolves to 127.0.0.1, an internal address (loopback); set CRAWL_ALLOW_PRIVATE_NETWORKS=true to crawl internal networks` })
  t.same(site.requests, [], 'the server heard nothing')
})

t.test('a redirect to an internal address is refused at its hop', async (t) => {
  const secret = await startSite(t, { '/secret': page('<title>Operator secrets</title>') })
  const shop = await startSite(t, {
    '/': page('<a href="/to-secret">a</a><a href="/to-metadata">b</a><a href="/to-localhost">c</a><a href="/help">help</a>'),
    '/to-secret': redirect(`${secret.origin}/secret`),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/', 301),
    '/to-localhost': redirect(`http://[::1]:${secret.port}/secret`, 307),
    '/help': page('<title>Help</title>')
  })
  const pages: FetchedPage[] = []
  // shop.test stands for a public shop: it is trusted by name, as a test or local setup would.
  const report = await crawl(`http://shop.test:${shop.port}/`, {
    allowHosts: ['shop.test'],
    lookup: fakeDns({ 'shop.test': ['127.0.0.1'] })
  }, async (p) => { pages.push(p) })

  t.same(pages.map((p) => p.url), [`http://shop.test:${shop.port}/`, `http://shop.test:${shop.port}/help`])
  const reasons = Object.fromEntries(report.skipped.map((s) => [new URL(s.url).pathname, s.reason]))
  t.match(reasons, {
    '/to-secret': `redirect to ${secret.origin}/secret refused: 127.0.0.1, an internal address (loopback); set CRAWL_ALLOW_PRIVATE_NETWORKS=true to crawl internal networks`,
    '/to-metadata': /^redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data\/ refused: .*\(linkLocal\)/,
    '/to-localhost': /^redirect to http:\/\/\[::1\]:\d+\/secret refused: .*\(loopback\)/
  })
  t.same(secret.requests, [], 'the internal server received no request')
  t.same(paths(shop).sort(), ['/', '/help', '/robots.txt', '/sitemap.xml', '/to-localhost', '/to-metadata', '/to-secret'])
})

t.test('allowed private networks reach a same-origin redirect, but another origin stays off limits', async (t) => {
  const other = await startSite(t, { '/': page('<title>Other</title>') })
  const site = await startSite(t, {
    '/': page('<a href="/away">away</a>'),
    '/away': redirect(`${other.origin}/`)
  })
  const report = await crawl(`${site.origin}/`, { allowPrivateNetworks: true }, async () => {})
  t.equal(report.pages, 1)
  t.same(report.skipped, [{ url: `${site.origin}/away`, reason: `redirects to ${other.origin}/, outside ${site.origin}` }])
  t.same(other.requests, [])
})
