/**
 * Meilisearch's HTTP contract as its OpenAPI document states it (meilisearch-openapi.json, see the
 * README beside it), corrected (corrections.ts), as JSON-schema checks: a request against its
 * operation (path, method, query parameters, body) and an answer against the operation's success
 * response. The document is OpenAPI 3.1, whose schemas are JSON Schema 2020-12.
 */
import { readFileSync } from 'node:fs'
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import { correct } from './corrections.js'

type Schema = Record<string, unknown>
interface Parameter { name: string, in: string, required?: boolean, schema?: Schema }
interface Operation {
  parameters?: Parameter[]
  requestBody?: { required?: boolean, content: Record<string, { schema?: Schema } | undefined> }
  responses: Record<string, { content?: Record<string, { schema?: Schema } | undefined> } | undefined>
}
export interface OpenApiDocument {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, Operation | undefined>>
  components: { schemas: Record<string, Schema> }
}

/** The operation a request was matched to, with its path parameters. */
export interface Route { method: string, template: string, operation: Operation, pathParams: Record<string, string> }

/** The id the document is registered under: its own references (`#/components/…`) resolve within it. */
const DOCUMENT = 'meilisearch'
const FILE = new URL('./meilisearch-openapi.json', import.meta.url)
/** The answers an adapter waits for: a read's 200, a write's 202 (an enqueued task). */
const SUCCESS = ['200', '201', '202']

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** An Ajv error as one line: where, what, and the field it names. */
function describe (error: ErrorObject): string {
  const property = (error.params as { additionalProperty?: string }).additionalProperty
  return `${error.instancePath === '' ? '/' : error.instancePath} ${error.message ?? 'is invalid'}${property === undefined ? '' : ` (${property})`}`
}

/**
 * A query or path parameter as its schema reads it: the client writes numbers and booleans as text
 * and joins an array with commas (`ids=a,b`), which is what Meilisearch parses (not the repeated
 * `ids=a&ids=b` OpenAPI's default form style would mean).
 */
function parameterValue (text: string, type: unknown): unknown {
  if (type === 'integer' || type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text
  if (type === 'array') return text.split(',')
  return text
}

export class MeilisearchContract {
  readonly document: OpenApiDocument
  readonly #ajv: Ajv2020
  readonly #validators = new Map<string, ValidateFunction>()
  readonly #paths: Array<{ template: string, pattern: RegExp, names: string[] }>

  constructor (document: OpenApiDocument) {
    this.document = document
    // strict: false, as the document carries OpenAPI's own keywords (example, …) beside JSON Schema's;
    // formats (u-int32, float, date-time) are left unchecked: they are Rust's types, not wire formats.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
    this.#ajv.addSchema(document as unknown as Schema, DOCUMENT)
    this.#paths = Object.keys(document.paths).map((template) => {
      const names: string[] = []
      const source = template.split('/').map((segment) => {
        const name = /^\{(.+)\}$/.exec(segment)?.[1]
        if (name === undefined) return escapeRegExp(segment)
        names.push(name)
        return '([^/]+)'
      }).join('/')
      return { template, pattern: new RegExp(`^${source}$`), names }
    })
  }

  /** The document as published (corrected: false) or with the generator's slips corrected. */
  static load ({ corrected = true } = {}): MeilisearchContract {
    const document = JSON.parse(readFileSync(FILE, 'utf8')) as OpenApiDocument
    return new MeilisearchContract(corrected ? correct(document) : document)
  }

  /** Problems of `value` against the document's `components.schemas[name]` (none: valid). */
  check (name: string, value: unknown): string[] {
    if (this.document.components.schemas[name] === undefined) throw new Error(`no schema ${name} in Meilisearch's OpenAPI document`)
    return this.#validate(`#/components/schemas/${name}`, () => ({ $ref: `${DOCUMENT}#/components/schemas/${name}` }), value)
  }

  /**
   * Whether `components.schemas[name]` declares `field`: in its properties, or in those of a schema it
   * is made of (allOf, oneOf, anyOf, references). An answer's schema may allow any field (a hit's), so
   * a field an adapter reads is looked up here too.
   */
  declares (name: string, field: string): boolean {
    const seen = new Set<unknown>()
    const visit = (schema: unknown): boolean => {
      if (typeof schema !== 'object' || schema === null || seen.has(schema)) return false
      seen.add(schema)
      const { $ref: ref, properties } = schema as Schema
      if (typeof ref === 'string') return visit(this.document.components.schemas[ref.replace('#/components/schemas/', '')])
      if (typeof properties === 'object' && properties !== null && field in properties) return true
      return ['allOf', 'oneOf', 'anyOf'].some((key) => {
        const branches = (schema as Schema)[key]
        return Array.isArray(branches) && branches.some(visit)
      })
    }
    return visit(this.document.components.schemas[name])
  }

  /** The operation of a request; a string saying why there is none. */
  route (method: string, pathname: string): Route | string {
    const matches = this.#paths
      .map((path) => ({ path, found: path.pattern.exec(pathname) }))
      .filter((m) => m.found !== null)
    if (matches.length === 0) return `no path ${pathname} in Meilisearch's API`
    // A literal segment wins over a parameter (…/documents/fetch before …/documents/{document_id}).
    const withMethod = matches
      .filter((m) => this.document.paths[m.path.template]![method.toLowerCase()] !== undefined)
      .sort((a, b) => a.path.names.length - b.path.names.length)[0]
    if (withMethod === undefined) return `${method} is not an operation of ${matches[0]!.path.template}`
    const { path, found } = withMethod
    return {
      method,
      template: path.template,
      operation: this.document.paths[path.template]![method.toLowerCase()]!,
      pathParams: Object.fromEntries(path.names.map((name, i) => [name, decodeURIComponent(found![i + 1]!)]))
    }
  }

  /** The request's operation (if any) and what Meilisearch would refuse in it. */
  checkRequest (method: string, url: URL, body: unknown): { route: Route | undefined, violations: string[] } {
    const route = this.route(method, url.pathname)
    if (typeof route === 'string') return { route: undefined, violations: [route] }
    const violations: string[] = []
    const parameters = route.operation.parameters ?? []
    const pointer = (i: number) => `${route.method} ${route.template} parameters/${i}`
    parameters.forEach((parameter, i) => {
      if (parameter.in !== 'path' && parameter.in !== 'query') return
      const text = parameter.in === 'path' ? route.pathParams[parameter.name] : url.searchParams.get(parameter.name) ?? undefined
      if (text === undefined) {
        if (parameter.required === true) violations.push(`the ${parameter.in} parameter ${parameter.name} is missing`)
        return
      }
      const schema = parameter.schema ?? {}
      const value = parameterValue(text, this.#typeOf(schema))
      violations.push(...this.#validate(pointer(i), () => this.#standalone(schema), value).map((v) => `${parameter.in} parameter ${parameter.name}: ${v}`))
    })
    for (const name of new Set(url.searchParams.keys())) {
      if (!parameters.some((p) => p.in === 'query' && p.name === name)) violations.push(`unknown query parameter ${name}`)
    }
    const requestBody = route.operation.requestBody
    if (requestBody === undefined) {
      if (body !== undefined) violations.push('a body, where the operation takes none')
    } else if (body === undefined) {
      if (requestBody.required === true) violations.push('no body, where the operation requires one')
    } else {
      const schema = requestBody.content['application/json']?.schema
      if (schema === undefined) violations.push('a JSON body, where the operation takes another type')
      else violations.push(...this.#validate(`${route.method} ${route.template} requestBody`, () => this.#standalone(schema), body).map((v) => `body ${v}`))
    }
    return { route, violations }
  }

  /** The status of the operation's success answer, and what in `body` that answer could not hold. */
  checkResponse (route: Route, body: unknown): { status: number, violations: string[] } {
    const status = SUCCESS.find((s) => route.operation.responses[s] !== undefined)
    if (status === undefined) return { status: 200, violations: [`${route.method} ${route.template} has no success answer`] }
    const schema = route.operation.responses[status]!.content?.['application/json']?.schema
    if (schema === undefined) return { status: Number(status), violations: body === undefined ? [] : ['a JSON answer, where the operation has none'] }
    const violations = this.#validate(`${route.method} ${route.template} ${status}`, () => this.#standalone(schema), body)
    return { status: Number(status), violations: violations.map((v) => `answer ${v}`) }
  }

  #validate (key: string, schema: () => Schema, value: unknown): string[] {
    let validate = this.#validators.get(key)
    if (validate === undefined) {
      validate = this.#ajv.compile(schema())
      this.#validators.set(key, validate)
    }
    return validate(value) ? [] : (validate.errors ?? []).map(describe)
  }

  /** A schema of an operation, compiled on its own: its references point into the registered document. */
  #standalone (schema: Schema): Schema {
    return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${DOCUMENT}#/`)) as Schema
  }

  /** The JSON type a parameter's schema names (through a reference; the non-null one of a list). */
  #typeOf (schema: Schema): unknown {
    const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined
    const resolved = ref === undefined ? schema : this.document.components.schemas[ref] ?? {}
    const type = resolved.type
    return Array.isArray(type) ? type.find((t) => t !== 'null') : type
  }
}

let loaded: MeilisearchContract | undefined

/** The corrected contract, loaded once per test process. */
export function meilisearchContract (): MeilisearchContract {
  loaded ??= MeilisearchContract.load()
  return loaded
}
