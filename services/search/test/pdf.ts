import { PDFDocument, StandardFonts } from 'pdf-lib'

/** A PDF with real text: pages of paragraphs of lines, drawn in Helvetica; an empty page has no text. */
export async function pdfOf (pages: string[][][], title?: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  if (title !== undefined) doc.setTitle(title)
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const paragraphs of pages) {
    const page = doc.addPage([600, 800])
    let y = 740
    for (const lines of paragraphs) {
      for (const line of lines) {
        page.drawText(line, { x: 50, y, size: 12, font })
        y -= 15
      }
      y -= 20
    }
  }
  return await doc.save()
}
