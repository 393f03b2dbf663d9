import { errorCatalog, type ErrorCode } from '@chatsearch/contracts'

/**
 * An error the API answers with on purpose, named by its code in the catalog of
 * `@chatsearch/contracts`, which gives its status and title. The error handler turns it into the
 * documented body `{ statusCode, error, code, message }`.
 */
export class ApiError extends Error {
  readonly statusCode: number
  readonly error: string
  readonly code: ErrorCode
  readonly headers: Record<string, string>

  constructor (code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.statusCode = errorCatalog[code].status
    this.error = errorCatalog[code].title
    this.headers = headers
  }
}
