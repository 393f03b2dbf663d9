import type { FastifyRequest } from 'fastify'

const INTEGER = /^-?\d{1,15}$/

/**
 * A preValidation hook turning the named query parameters written as integers into numbers. The
 * apps validate without type coercion (a JSON body's "5" stays a string), but a query string has
 * only strings, so the contracts' integer parameters are converted here and validated as such.
 */
export function integerQuery (...names: string[]) {
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>
    for (const name of names) {
      const value = query[name]
      if (typeof value === 'string' && INTEGER.test(value)) query[name] = Number(value)
    }
  }
}
