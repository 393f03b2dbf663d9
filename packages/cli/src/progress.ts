/** A progress line on stderr: redrawn in place at a terminal, printed every few seconds otherwise. */
export class Progress {
  readonly #total: number
  readonly #label: string
  readonly #started = Date.now()
  readonly #tty = process.stderr.isTTY === true
  #lastPrint = 0

  constructor (label: string, total: number) {
    this.#label = label
    this.#total = total
  }

  update (done: number, force = false) {
    const now = Date.now()
    if (!force && now - this.#lastPrint < (this.#tty ? 100 : 5000)) return
    this.#lastPrint = now
    const seconds = Math.max((now - this.#started) / 1000, 0.001)
    const rate = done / seconds
    const share = this.#total === 0 ? 1 : done / this.#total
    const width = 24
    const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '-')
    const eta = rate > 0 ? Math.ceil((this.#total - done) / rate) : 0
    const line = `${this.#label} [${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${done.toLocaleString('en')}/${this.#total.toLocaleString('en')} items · ${Math.round(rate).toLocaleString('en')} items/s · ETA ${eta}s`
    process.stderr.write(this.#tty ? `\r${line}` : `${line}\n`)
  }

  finish (done: number) {
    this.update(done, true)
    if (this.#tty) process.stderr.write('\n')
  }
}
