/** pdf.js ships its worker without types; it is only imported for what it registers (pdfjs.ts). */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown
}
