// What the shop's <script> tag says, read once by the loader and handed to the panel.
import { langOf, type Lang } from './texts.js'

export type Position = 'left' | 'right'

export interface WidgetConfig {
  /** The publishable widget key, csk_pub_… */
  key: string
  /** Base URL of the chat API, without a trailing slash (data-api; by default the loader's, less /widget/v1/loader.js). */
  api: string
  /** The panel's script, beside the loader. */
  panelUrl: string
  color?: string
  position: Position
  greeting?: string
  lang: Lang
  /** Identity verification: the shop's logged-in customer and the HMAC its server computed. */
  identity?: { consumerId: string, hmac: string }
}

const KEY = /^csk_pub_[A-Za-z0-9]{16,128}$/
const HEX = /^[0-9a-fA-F]{64}$/
const MAX_GREETING = 500
const MAX_CONSUMER_ID = 256

/** An http(s) URL's origin and path without a trailing slash, or undefined. */
function baseUrl (value: string, relativeTo: string): string | undefined {
  try {
    const url = new URL(value, relativeTo)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
    return (url.origin + url.pathname).replace(/\/+$/, '')
  } catch {
    return undefined
  }
}

/**
 * The configuration from the script's data- attributes, or why there is none (said once on the
 * console: a shop's page must not break because of a typo in the snippet).
 * `isColor` checks a colour (CSS.supports in a browser), so no attribute can write CSS of its own.
 */
export function readConfig (attr: (name: string) => string | null, scriptSrc: string, pageLang: string | null, isColor: (value: string) => boolean, panelVersion: string): WidgetConfig | { error: string } {
  const key = attr('data-key')?.trim() ?? ''
  if (!KEY.test(key)) return { error: 'data-key must be a publishable widget key (csk_pub_…)' }
  const src = baseUrl(scriptSrc, scriptSrc)
  if (src === undefined) return { error: 'the loader must be loaded over http(s)' }
  // By default the API is where the loader came from: the chat service itself, or under a gateway's path.
  const api = baseUrl(attr('data-api') ?? scriptSrc.replace(/\/widget\/v1\/[^/?#]*([?#].*)?$/, ''), scriptSrc)
  if (api === undefined) return { error: 'data-api must be an http(s) URL' }
  const color = attr('data-color')?.trim()
  const greeting = attr('data-greeting')?.trim().slice(0, MAX_GREETING)
  const consumerId = attr('data-consumer-id')?.trim()
  const hmac = attr('data-consumer-hmac')?.trim()
  return {
    key,
    api,
    panelUrl: `${new URL('panel.js', scriptSrc).href}?v=${encodeURIComponent(panelVersion)}`,
    ...(color !== undefined && color !== '' && isColor(color) ? { color } : {}),
    position: attr('data-position')?.trim().toLowerCase() === 'left' ? 'left' : 'right',
    ...(greeting !== undefined && greeting !== '' ? { greeting } : {}),
    lang: langOf(attr('data-lang'), pageLang),
    ...(consumerId !== undefined && consumerId !== '' && consumerId.length <= MAX_CONSUMER_ID && hmac !== undefined && HEX.test(hmac) ? { identity: { consumerId, hmac } } : {})
  }
}
