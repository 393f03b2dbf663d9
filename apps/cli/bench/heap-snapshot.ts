// Reads a V8 `.heapsnapshot` in one pass, its node and edge tables straight into typed arrays: a
// snapshot of a few hundred MB would take several GB as the objects of one JSON.parse.
import { createReadStream } from 'node:fs'

/** The parts of a snapshot the retained-size analysis reads (see heap.ts). */
export interface HeapSnapshot {
  nodeFields: string[]
  /** Names of the node types, indexed by a node's `type` field. */
  nodeTypes: string[]
  edgeFields: string[]
  edgeTypes: string[]
  /** `nodeFields.length` numbers per node. */
  nodes: Uint32Array
  /** `edgeFields.length` numbers per edge, node by node in the order of `nodes`. */
  edges: Uint32Array
  strings: string[]
}

const NODES_START = Buffer.from('"nodes":[')

interface Header {
  meta: { node_fields: string[], node_types: [string[], ...unknown[]], edge_fields: string[], edge_types: [string[], ...unknown[]] }
  node_count: number
  edge_count: number
}

/**
 * A comma-separated list of unsigned integers, fed a chunk at a time: V8 writes `nodes` and `edges`
 * as such, with newlines between rows.
 */
class NumberList {
  readonly values: Uint32Array
  #count = 0
  #current = 0
  #inNumber = false

  constructor (size: number) {
    this.values = new Uint32Array(size)
  }

  /** Reads from `start`; the index just past the closing `]`, or -1 when the chunk ends first. */
  feed (chunk: Buffer, start: number): number {
    for (let i = start; i < chunk.length; i++) {
      const c = chunk[i]!
      if (c >= 48 && c <= 57) {
        this.#current = this.#current * 10 + (c - 48)
        this.#inNumber = true
        continue
      }
      if (this.#inNumber) {
        if (this.#count === this.values.length) throw new Error(`heap snapshot: more than the ${this.values.length} numbers its header announces`)
        this.values[this.#count++] = this.#current
        this.#current = 0
        this.#inNumber = false
      }
      if (c === 93) { // ]
        if (this.#count !== this.values.length) throw new Error(`heap snapshot: ${this.#count} numbers where its header announces ${this.values.length}`)
        return i + 1
      }
    }
    return -1
  }
}

/** Finds a marker such as `"edges":[` across chunk boundaries. */
class Marker {
  readonly #text: Buffer
  #tail = Buffer.alloc(0)

  constructor (text: string) {
    this.#text = Buffer.from(text, 'latin1')
  }

  /** `chunk` from `start` with the bytes kept from the last chunk, and where the marker ends in it (or -1). */
  find (chunk: Buffer, start: number): { buffer: Buffer, end: number } {
    const buffer = this.#tail.length === 0 ? chunk.subarray(start) : Buffer.concat([this.#tail, chunk.subarray(start)])
    const at = buffer.indexOf(this.#text)
    if (at === -1) {
      this.#tail = Buffer.from(buffer.subarray(Math.max(0, buffer.length - this.#text.length + 1)))
      return { buffer, end: -1 }
    }
    return { buffer, end: at + this.#text.length }
  }
}

/**
 * Parses the snapshot at `file`. V8 writes its sections in a fixed order (snapshot header, nodes,
 * edges, the allocation-tracking sections, locations, strings), as DevTools' loader also assumes.
 * `chunkSize` is for the tests, which cut a small file into many chunks.
 */
export async function readHeapSnapshot (file: string, chunkSize = 1 << 20): Promise<HeapSnapshot> {
  let phase: 'header' | 'nodes' | 'to-edges' | 'edges' | 'to-strings' | 'strings' = 'header'
  let head = Buffer.alloc(0)
  const edgesStart = new Marker('"edges":[')
  const stringsStart = new Marker('"strings":[')
  let header: Header | undefined
  let nodes: NumberList | undefined
  let edges: NumberList | undefined
  const stringChunks: Buffer[] = [Buffer.from('[')]

  for await (const data of createReadStream(file, { highWaterMark: chunkSize })) {
    let chunk = data as Buffer
    let at = 0
    while (at < chunk.length) {
      if (phase === 'header') {
        // The header is a few kB of ASCII, kept whole until the nodes begin.
        head = Buffer.concat([head, chunk.subarray(at)])
        const found = head.indexOf(NODES_START)
        if (found === -1) break
        header = parseHeader(head.toString('latin1', 0, found))
        nodes = new NumberList(header.node_count * header.meta.node_fields.length)
        edges = new NumberList(header.edge_count * header.meta.edge_fields.length)
        chunk = head
        at = found + NODES_START.length
        phase = 'nodes'
      } else if (phase === 'nodes' || phase === 'edges') {
        const end = (phase === 'nodes' ? nodes! : edges!).feed(chunk, at)
        if (end === -1) break
        at = end
        phase = phase === 'nodes' ? 'to-edges' : 'to-strings'
      } else if (phase === 'to-edges' || phase === 'to-strings') {
        const found = (phase === 'to-edges' ? edgesStart : stringsStart).find(chunk, at)
        if (found.end === -1) break
        chunk = found.buffer
        at = found.end
        phase = phase === 'to-edges' ? 'edges' : 'strings'
      } else {
        stringChunks.push(chunk.subarray(at))
        break
      }
    }
  }
  if (header === undefined || phase !== 'strings') throw new Error(`heap snapshot ${file}: incomplete (stopped while reading its ${phase})`)
  // The rest is the strings' array and the closing brace of the whole document.
  const rest = Buffer.concat(stringChunks).toString('utf8').trimEnd()
  if (!rest.endsWith('}')) throw new Error(`heap snapshot ${file}: does not end with its strings`)
  const strings = JSON.parse(rest.slice(0, -1)) as string[]
  return {
    nodeFields: header.meta.node_fields,
    nodeTypes: header.meta.node_types[0],
    edgeFields: header.meta.edge_fields,
    edgeTypes: header.meta.edge_types[0],
    nodes: nodes!.values,
    edges: edges!.values,
    strings
  }
}

/** `{"snapshot":{…},\n` → the object of `snapshot`. */
function parseHeader (text: string): Header {
  const open = text.indexOf('{', 1)
  const close = text.lastIndexOf('}')
  if (open === -1 || close < open) throw new Error('heap snapshot: no header before its nodes')
  return JSON.parse(text.slice(open, close + 1)) as Header
}
