import type { TextItem } from 'pdfjs-dist/types/src/display/api.js'
import type { Block, ParsedPage } from '../types.js'
import { FileRejected } from './file-rejected.js'
import { collapseWhitespace } from './headings.js'
import { loadPdfJs } from './pdfjs.js'

export interface PdfLimits {
  /** Pages past this are refused rather than read in part. */
  maxPages?: number
  /** Time for the whole document; checked between pages (pdf.js runs on this thread). */
  timeoutMs?: number
}

/**
 * A PDF's text as a ParsedPage: lines joined into paragraphs (a new one where the gap between lines
 * is wider than a line), each anchored `page=N`, which PDF viewers open at that page. pdf.js's legacy
 * build is used because it runs on Node 20 without a canvas or a worker file.
 */
export async function parsePdf (bytes: Uint8Array, fallbackTitle: string, url?: string, limits: PdfLimits = {}): Promise<ParsedPage> {
  const maxPages = limits.maxPages ?? 500
  const deadline = Date.now() + (limits.timeoutMs ?? 30_000)
  const { getDocument } = await loadPdfJs()
  // pdf.js takes the buffer over (transfers it): give it a copy so the caller's bytes stay whole.
  const task = getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, verbosity: 0 })
  let pdf
  try {
    pdf = await task.promise
  } catch (error) {
    await task.destroy()
    throw new FileRejected('invalid_file', `the PDF cannot be read (${(error as Error).name})`)
  }
  try {
    if (pdf.numPages > maxPages) throw new FileRejected('invalid_file', `the PDF has ${pdf.numPages} pages, more than the ${maxPages} read`)
    const blocks: Block[] = []
    for (let number = 1; number <= pdf.numPages; number++) {
      if (Date.now() > deadline) throw new FileRejected('invalid_file', `the PDF took longer than ${limits.timeoutMs ?? 30_000} ms to read`)
      const page = await pdf.getPage(number)
      const content = await page.getTextContent()
      for (const text of paragraphs(content.items.filter((item): item is TextItem => 'str' in item))) {
        blocks.push({ path: [], anchor: `page=${number}`, text })
      }
      page.cleanup()
    }
    if (blocks.length === 0) throw new FileRejected('invalid_file', 'the PDF has no text (a scanned document needs text recognition first)')
    const info = (await pdf.getMetadata().catch(() => undefined))?.info as { Title?: unknown } | undefined
    const title = typeof info?.Title === 'string' && info.Title.trim() !== '' ? collapseWhitespace(info.Title) : fallbackTitle
    return { title, blocks, ...(url === undefined ? {} : { url }) }
  } finally {
    await pdf.destroy()
  }
}

/** A page's text runs as paragraphs: a run ends a line when it says so; a wide vertical gap ends a paragraph. */
function paragraphs (items: TextItem[]): string[] {
  const found: string[] = []
  let current = ''
  let lastY: number | undefined
  let lastHeight = 0
  for (const item of items) {
    const y = item.transform[5] as number
    const height = item.height > 0 ? item.height : lastHeight
    if (lastY !== undefined && (lastY - y > 1.8 * Math.max(height, lastHeight) || y > lastY + height)) {
      found.push(current)
      current = ''
    }
    current += item.str + (item.hasEOL ? ' ' : '')
    if (item.str !== '') {
      lastY = y
      lastHeight = height
    }
  }
  found.push(current)
  return found.map(collapseWhitespace).filter((text) => text !== '')
}
