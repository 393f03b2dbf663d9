/**
 * An error the API answers with on purpose. The error handler turns it into the
 * documented body `{ statusCode, error, code, message }`.
 */
export class ApiError extends Error {
  readonly statusCode: number
  readonly error: string
  readonly code: string
  readonly headers: Record<string, string>

  constructor (statusCode: number, error: string, code: string, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'ApiError'
    this.statusCode = statusCode
    this.error = error
    this.code = code
    this.headers = headers
  }
}

export const missingParameters = (message: string) => new ApiError(400, 'Missing Parameters', 'missing_parameters', message)
export const invalidRequest = (message: string) => new ApiError(400, 'Bad Request', 'invalid_request', message)
export const unauthorized = (message: string) => new ApiError(401, 'Unauthorized', 'unauthorized', message)
export const chatNotFound = (message: string) => new ApiError(404, 'Chat Not Found', 'chat_not_found', message)
export const notImplemented = (message: string) => new ApiError(501, 'Not Implemented', 'not_implemented', message)
export const serviceUnavailable = (message: string) => new ApiError(503, 'Service Unavailable', 'service_unavailable', message)
