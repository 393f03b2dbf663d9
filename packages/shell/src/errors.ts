import { errorBody, type ErrorCode } from '@chatsearch/contracts'

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
    const { statusCode, error } = errorBody(code, message)
    this.code = code
    this.statusCode = statusCode
    this.error = error
    this.headers = headers
  }
}
