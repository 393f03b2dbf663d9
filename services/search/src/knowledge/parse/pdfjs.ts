/// <reference path="./pdfjs-worker.d.ts" />
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs')

/**
 * pdf.js's legacy build carries core-js polyfills that replace, for the whole process, built-ins Node 20
 * already has: Array.prototype.push, JSON.parse, JSON.stringify and Function.prototype.toString. Its push
 * is 2.5 times slower, its stringify 12 times, and Markdown parsing (micromark pushes every event) took
 * up to twice as long once pdf.js had been imported anywhere in the process. The built-ins it adds
 * (Promise.withResolvers, Iterator helpers…) are its own needs and are kept.
 */
const GUARDED: object[] = [
  Object, Object.prototype, Function.prototype, Array, Array.prototype, JSON, Math, Promise, Promise.prototype,
  String.prototype, Number.prototype, RegExp.prototype, Map.prototype, Set.prototype, WeakMap.prototype,
  ArrayBuffer, ArrayBuffer.prototype, Object.getPrototypeOf(Uint8Array), Object.getPrototypeOf(Uint8Array.prototype), Uint8Array
]

let loading: Promise<PdfJs> | undefined

/**
 * pdf.js, loaded on the first PDF with the built-ins it replaces put back. Its worker module is loaded
 * here too (it registers itself as globalThis.pdfjsWorker, which pdf.js then uses in this thread), as
 * pdf.js would otherwise import it on the first document and replace them again.
 */
export async function loadPdfJs (): Promise<PdfJs> {
  loading ??= keepingBuiltIns(async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
    await import('pdfjs-dist/legacy/build/pdf.worker.mjs')
    return pdfjs
  })
  return await loading
}

async function keepingBuiltIns<T> (load: () => Promise<T>): Promise<T> {
  const before = GUARDED.map((target) => Object.getOwnPropertyDescriptors(target))
  try {
    return await load()
  } finally {
    GUARDED.forEach((target, i) => {
      for (const [key, descriptor] of Object.entries(before[i]!)) {
        const now = Object.getOwnPropertyDescriptor(target, key)
        if (now !== undefined && (!Object.is(now.value, descriptor.value) || now.get !== descriptor.get)) Object.defineProperty(target, key, descriptor)
      }
    })
  }
}
