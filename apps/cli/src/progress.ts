import { plural } from './plural.js'

/** A progress line on stderr: redrawn in place at a terminal, printed every few seconds otherwise. */
export class Progress {
  readonly #label: string
  readonly #unit: string
  readonly #started: number
  readonly #tty = process.stderr.isTTY === true
  #lastPrint = 0
  #printed = -1
  #done = 0
  #total = 0
  #updated = false

  /** `unit`: what is counted, singular ("item", "file", "page"); `started`: when the counted work began (the rate's start). */
  constructor (label: string, unit = 'item', started = Date.now()) {
    this.#label = label
    this.#unit = unit
    this.#started = started
  }

  update (done: number, total: number) {
    this.#done = done
    this.#total = total
    this.#updated = true
    this.#print(false)
  }

  /** Prints the last state whatever the time (unless it is on screen), and ends the line; nothing if there never was progress. */
  finish () {
    if (!this.#updated) return
    if (this.#printed !== this.#done) this.#print(true)
    if (this.#tty) process.stderr.write('\n')
  }

  #print (force: boolean) {
    const now = Date.now()
    if (!force && now - this.#lastPrint < (this.#tty ? 100 : 5000)) return
    this.#lastPrint = now
    const done = this.#done
    this.#printed = done
    const total = this.#total
    const seconds = Math.max((now - this.#started) / 1000, 0.001)
    const rate = done / seconds
    const share = total === 0 ? 1 : done / total
    const width = 24
    const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '-')
    const eta = done >= total ? '0s' : rate > 0 ? `${Math.ceil((total - done) / rate)}s` : '?'
    const line = `${this.#label} [${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${done.toLocaleString('en')}/${plural(total, this.#unit)} · ${Math.round(rate).toLocaleString('en')} ${this.#unit}s/s · ETA ${eta}`
    process.stderr.write(this.#tty ? `\r${line}` : `${line}\n`)
  }
}
