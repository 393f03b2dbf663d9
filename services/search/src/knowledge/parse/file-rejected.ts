import type { ErrorCode } from '@chatsearch/contracts'
import { ApiError } from '@chatsearch/shell'

/**
 * A file or page that cannot be indexed, with the reason a user can act on. It is an ApiError, so an
 * upload route answers it as is (415, 400 or 413), and a task records it in `details` as a skipped file.
 */
export type RejectionCode = Extract<ErrorCode, 'unsupported_file_type' | 'invalid_file' | 'payload_too_large'>

export class FileRejected extends ApiError {
  declare readonly code: RejectionCode
  readonly reason: string

  constructor (code: RejectionCode, reason: string) {
    super(code, reason)
    this.name = 'FileRejected'
    this.reason = reason
  }
}
