/**
 * The heading path as a document is read: a heading of level n closes every open heading of level n
 * or deeper, so a block's path is the headings above it, outermost first (Markdown and HTML alike).
 */
export class HeadingPath {
  private readonly open: Array<{ level: number, text: string }> = []

  enter (level: number, text: string): void {
    while (this.open.length > 0 && this.open[this.open.length - 1]!.level >= level) this.open.pop()
    this.open.push({ level, text })
  }

  get path (): string[] {
    return this.open.map((heading) => heading.text)
  }
}

/** Whitespace collapsed to single spaces, as a reader sees it on a rendered page. */
export function collapseWhitespace (text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
