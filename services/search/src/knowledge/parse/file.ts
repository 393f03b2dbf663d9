import { extname } from 'node:path'
import type { ParsedPage } from '../types.js'
import { FileRejected } from './file-rejected.js'
import { parseHtml } from './html.js'
import { parseMarkdown } from './markdown.js'
import { parsePdf, type PdfLimits } from './pdf.js'
import { parseText } from './text.js'

export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024

export type FileFormat = 'markdown' | 'text' | 'html' | 'pdf'

const FORMAT_OF_EXTENSION: Record<string, FileFormat> = {
  '.md': 'markdown', '.markdown': 'markdown', '.txt': 'text', '.html': 'html', '.htm': 'html', '.pdf': 'pdf'
}

export interface UploadedFile {
  name: string
  bytes: Uint8Array
  /** The part's Content-Type; the extension decides, this is only checked against it. */
  declaredType?: string
  /** Where readers find the original. */
  url?: string
}

/** A file that passed the cheap checks: its format, and its text unless it is a PDF. */
export type CheckedFile = { format: 'pdf' } | { format: Exclude<FileFormat, 'pdf'>, text: string }

/**
 * The checks an upload gets before it is accepted, all cheap: the name's extension says what the file
 * should be, and the bytes must then really be that (a PDF starts with `%PDF-`, text decodes strictly
 * as UTF-8 or BOM-marked UTF-16); compressed files and archives are refused unopened. Anything else is
 * a FileRejected with the reason.
 */
export function checkFile (file: UploadedFile, maxBytes = DEFAULT_MAX_FILE_BYTES): CheckedFile {
  if (file.bytes.byteLength > maxBytes) {
    throw new FileRejected('payload_too_large', `${file.name} is ${file.bytes.byteLength} bytes, more than the ${maxBytes} accepted per file`)
  }
  const compressed = compression(file.bytes)
  if (compressed !== undefined) throw new FileRejected('unsupported_file_type', `${file.name} is ${compressed}-compressed; upload the file itself`)
  const format = FORMAT_OF_EXTENSION[extname(file.name).toLowerCase()]
  if (format === undefined) {
    throw new FileRejected('unsupported_file_type', `${file.name}: only .md, .markdown, .txt, .html, .htm and .pdf files are read`)
  }
  if (file.declaredType === 'application/pdf' && format !== 'pdf') {
    throw new FileRejected('invalid_file', `${file.name} is sent as application/pdf but named as ${format}`)
  }
  if (format === 'pdf') {
    if (!startsWith(file.bytes, PDF_MAGIC)) throw new FileRejected('invalid_file', `${file.name} is named .pdf but is not a PDF (no %PDF- header)`)
    return { format }
  }
  if (startsWith(file.bytes, PDF_MAGIC)) throw new FileRejected('invalid_file', `${file.name} is a PDF named as ${format}; name it .pdf`)
  return { format, text: decodeText(file.name, file.bytes) }
}

/** An uploaded file as a ParsedPage, once checkFile accepts it (the parsers may still refuse it). */
export async function parseFile (file: UploadedFile, limits: PdfLimits & { maxBytes?: number } = {}): Promise<ParsedPage> {
  const checked = checkFile(file, limits.maxBytes)
  const title = titleOf(file.name)
  if (checked.format === 'pdf') return await parsePdf(file.bytes, title, file.url, limits)
  return parseSource(checked.format, checked.text, title, file.url)
}

/** Markdown, HTML or plain text as a ParsedPage, `title` standing in where the text names none. */
export function parseSource (format: Exclude<FileFormat, 'pdf'>, text: string, title: string, url?: string): ParsedPage {
  if (format === 'markdown') return parseMarkdown(text, title, url)
  if (format === 'html') return parseHtml(text, title, url)
  return parseText(text, title, url)
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]

function startsWith (bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte)
}

/** Archives and compressed streams are refused before anything expands them (no compression bombs). */
function compression (bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x1f, 0x8b])) return 'gzip'
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return 'zip'
  if (startsWith(bytes, [0x28, 0xb5, 0x2f, 0xfd])) return 'zstd'
  if (startsWith(bytes, [0x42, 0x5a, 0x68])) return 'bzip2'
  if (startsWith(bytes, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'xz'
  if (startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z'
  return undefined
}

/** Strict decoding: a byte sequence that is not the encoding is refused, never replaced by U+FFFD. */
function decodeText (name: string, bytes: Uint8Array): string {
  const utf16 = startsWith(bytes, [0xff, 0xfe]) ? 'utf-16le' : startsWith(bytes, [0xfe, 0xff]) ? 'utf-16be' : undefined
  let text: string
  try {
    // TextDecoder drops the BOM by default (ignoreBOM: false).
    text = new TextDecoder(utf16 ?? 'utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new FileRejected('invalid_file', `${name} is not text: it is neither valid UTF-8 nor UTF-16 with a byte order mark`)
  }
  if (text.includes('\u0000')) throw new FileRejected('invalid_file', `${name} is not text: it holds NUL characters`)
  return text
}

/** `shipping-policy.md` → `shipping-policy`: a name for a page that has no heading to take one from. */
function titleOf (name: string): string {
  const base = name.replace(/^.*[/\\]/, '')
  const stem = base.slice(0, base.length - extname(base).length)
  return stem === '' ? base : stem
}
