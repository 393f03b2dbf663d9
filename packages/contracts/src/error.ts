import { Type, type Static } from 'typebox'

/** The one error body of every endpoint (ARCHITECTURE.md decision 1). */
export const ErrorBody = Type.Object({
  statusCode: Type.Integer({ minimum: 400, maximum: 599, examples: [404] }),
  error: Type.String({ description: 'Name of the error, as the spec gives it where it gives one', examples: ['Chat Not Found'] }),
  code: Type.String({ description: 'Stable snake_case code to branch on', examples: ['chat_not_found'] }),
  message: Type.String({ description: 'What went wrong and what to fix' })
}, { additionalProperties: false })
export type ErrorBody = Static<typeof ErrorBody>

/** Response entries for the error statuses an authenticated endpoint can answer with. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
  503: ErrorBody
}
