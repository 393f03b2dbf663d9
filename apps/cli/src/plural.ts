/** "1 item", "2 items", "1,200 items". */
export function plural (count: number, noun: string): string {
  return `${count.toLocaleString('en')} ${count === 1 ? noun : `${noun}s`}`
}
