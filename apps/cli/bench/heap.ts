// Retained size per constructor from a V8 heap snapshot, as the Summary view of Chrome DevTools
// groups and sums it, and the constructors whose retained size grew most between two snapshots.
//
// Written here rather than taken from npm: @memlab/core computes the same but depends on puppeteer
// (a browser download), and heap-snapshot-toolkit, a re-bundle of DevTools' own code, has had one
// release. What follows is the part of DevTools' HeapSnapshot.ts this needs, over typed arrays:
// the dominator tree by Cooper, Harvey and Kennedy's iterative algorithm ("A Simple, Fast Dominance
// Algorithm", 2001) on the graph without weak edges and without shortcut edges other than the
// root's (DevTools' `isEssentialEdge`), then each node's retained size from it.
import { readHeapSnapshot, type HeapSnapshot } from './heap-snapshot.js'

export interface ClassSize {
  count: number
  /** Bytes of the instances themselves. */
  self: number
  /** Bytes the instances keep alive, each counted once (see classSizes). */
  retained: number
}

export interface HeapSummary {
  nodes: number
  /** Bytes of every object in the snapshot: the root's retained size. */
  total: number
  classes: Map<string, ClassSize>
}

export interface Growth {
  name: string
  before: ClassSize
  after: ClassSize
}

const NONE = 0xffffffff

/** The fields of a node or an edge by name, checked once. */
function offsets (fields: string[], wanted: readonly string[]): number[] {
  return wanted.map((name) => {
    const i = fields.indexOf(name)
    if (i === -1) throw new Error(`heap snapshot: no "${name}" field (fields: ${fields.join(', ')})`)
    return i
  })
}

export interface DominatorTree {
  /** Node ordinals in post-order of the essential graph; the root (ordinal 0) is last. */
  postOrder: Uint32Array
  /** By post-order index: the post-order index of the immediate dominator (the root's is its own). */
  idom: Uint32Array
  /** By node ordinal: its retained size in bytes. */
  retained: Float64Array
}

/**
 * The dominator tree and retained sizes. Nodes the root does not reach by essential edges (those
 * kept only by weak references) are reached from the root directly, as DevTools does, so that
 * every node's size is counted once.
 */
export function dominatorTree (snapshot: HeapSnapshot): DominatorTree {
  const { nodes, edges } = snapshot
  const nodeFieldCount = snapshot.nodeFields.length
  const edgeFieldCount = snapshot.edgeFields.length
  const [selfOffset, edgeCountOffset] = offsets(snapshot.nodeFields, ['self_size', 'edge_count']) as [number, number]
  const [edgeTypeOffset, toOffset] = offsets(snapshot.edgeFields, ['type', 'to_node']) as [number, number]
  const weak = snapshot.edgeTypes.indexOf('weak')
  const shortcut = snapshot.edgeTypes.indexOf('shortcut')
  const count = nodes.length / nodeFieldCount

  // Where each node's edges begin in `edges`.
  const firstEdge = new Uint32Array(count + 1)
  for (let n = 0, at = 0; n < count; n++) {
    firstEdge[n] = at
    at += nodes[n * nodeFieldCount + edgeCountOffset]! * edgeFieldCount
    firstEdge[n + 1] = at
  }
  const essential = (from: number, edge: number) => {
    const type = edges[edge + edgeTypeOffset]!
    return type !== weak && (type !== shortcut || from === 0)
  }
  const target = (edge: number) => edges[edge + toOffset]! / nodeFieldCount

  // Post-order by an iterative depth-first search: from the root, then from each node not reached.
  const postOrder = new Uint32Array(count)
  const orderOf = new Uint32Array(count)
  const visited = new Uint8Array(count)
  const fromRoot = new Uint8Array(count)
  const stackNode = new Uint32Array(count)
  const stackEdge = new Uint32Array(count)
  let next = 0
  const search = (start: number) => {
    let depth = 0
    stackNode[0] = start
    stackEdge[0] = firstEdge[start]!
    visited[start] = 1
    while (depth >= 0) {
      const node = stackNode[depth]!
      const edge = stackEdge[depth]!
      if (edge < firstEdge[node + 1]!) {
        stackEdge[depth] = edge + edgeFieldCount
        const to = target(edge)
        if (visited[to] === 0 && essential(node, edge)) {
          visited[to] = 1
          depth++
          stackNode[depth] = to
          stackEdge[depth] = firstEdge[to]!
        }
        continue
      }
      depth--
      if (node === 0) continue
      postOrder[next] = node
      orderOf[node] = next++
    }
  }
  search(0)
  for (let n = 1; n < count; n++) {
    if (visited[n] === 0) {
      fromRoot[n] = 1
      search(n)
    }
  }
  postOrder[next] = 0
  orderOf[0] = next
  const root = next

  // Each node's predecessors on essential edges, as post-order indexes.
  const predStart = new Uint32Array(count + 1)
  for (let n = 0; n < count; n++) {
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += edgeFieldCount) if (essential(n, e)) predStart[orderOf[target(e)]! + 1]!++
  }
  for (let n = 0; n < count; n++) if (fromRoot[n] === 1) predStart[orderOf[n]! + 1]!++
  for (let i = 0; i < count; i++) predStart[i + 1]! += predStart[i]!
  const preds = new Uint32Array(predStart[count]!)
  const filled = predStart.slice(0, count)
  for (let n = 0; n < count; n++) {
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += edgeFieldCount) if (essential(n, e)) preds[filled[orderOf[target(e)]!]!++] = orderOf[n]!
  }
  for (let n = 0; n < count; n++) if (fromRoot[n] === 1) preds[filled[orderOf[n]!]!++] = root

  // Cooper–Harvey–Kennedy: refine until nothing changes, in reverse post-order.
  const idom = new Uint32Array(count).fill(NONE)
  idom[root] = root
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (a < b) a = idom[a]!
      while (b < a) b = idom[b]!
    }
    return a
  }
  for (let changed = true; changed;) {
    changed = false
    for (let i = root - 1; i >= 0; i--) {
      let dominator = NONE
      for (let p = predStart[i]!; p < predStart[i + 1]!; p++) {
        const pred = preds[p]!
        if (idom[pred] === NONE) continue
        dominator = dominator === NONE ? pred : intersect(pred, dominator)
      }
      if (dominator !== NONE && idom[i] !== dominator) {
        idom[i] = dominator
        changed = true
      }
    }
  }

  // A dominator comes after everything it dominates in post-order.
  const retainedByOrder = new Float64Array(count)
  for (let i = 0; i < count; i++) retainedByOrder[i] = nodes[postOrder[i]! * nodeFieldCount + selfOffset]!
  for (let i = 0; i < root; i++) retainedByOrder[idom[i]!]! += retainedByOrder[i]!
  const retained = new Float64Array(count)
  for (let i = 0; i < count; i++) retained[postOrder[i]!] = retainedByOrder[i]!
  return { postOrder, idom, retained }
}

/** The group of DevTools' Summary view: the constructor for objects, the kind in parentheses otherwise. */
export function className (type: string, name: string): string {
  if (type === 'object' || type === 'native') return name
  if (type === 'hidden') return '(system)'
  if (type === 'code') return '(compiled code)'
  return `(${type})`
}

/**
 * Count, self size and retained size per class. As in DevTools, a class's retained size sums the
 * retained sizes of its instances not dominated by another instance of the same class, so that a
 * linked list's nodes are not counted once per node before them. The root and the other synthetic
 * nodes (the GC roots' categories) are left out.
 */
export function classSizes (snapshot: HeapSnapshot, tree: DominatorTree): HeapSummary {
  const { nodes } = snapshot
  const nodeFieldCount = snapshot.nodeFields.length
  const [typeOffset, nameOffset, selfOffset] = offsets(snapshot.nodeFields, ['type', 'name', 'self_size']) as [number, number, number]
  const count = nodes.length / nodeFieldCount
  const names: string[] = []
  const sizes: ClassSize[] = []
  const ids = new Map<string, number>()
  const classOf = new Uint32Array(count)
  for (let n = 0; n < count; n++) {
    const at = n * nodeFieldCount
    const name = className(snapshot.nodeTypes[nodes[at + typeOffset]!] ?? 'unknown', snapshot.strings[nodes[at + nameOffset]!] ?? '')
    let id = ids.get(name)
    if (id === undefined) {
      id = names.length
      ids.set(name, id)
      names.push(name)
      sizes.push({ count: 0, self: 0, retained: 0 })
    }
    classOf[n] = id
    sizes[id]!.count++
    sizes[id]!.self += nodes[at + selfOffset]!
  }

  // Walk the dominator tree, counting how many instances of each class are on the path from the root.
  const { postOrder, idom, retained } = tree
  const root = count - 1
  const childStart = new Uint32Array(count + 1)
  for (let i = 0; i < root; i++) childStart[idom[i]! + 1]!++
  for (let i = 0; i < count; i++) childStart[i + 1]! += childStart[i]!
  const children = new Uint32Array(root)
  const filled = childStart.slice(0, count)
  for (let i = 0; i < root; i++) children[filled[idom[i]!]!++] = i
  const onPath = new Uint32Array(names.length)
  const stack = new Uint32Array(count)
  const cursor = new Uint32Array(count)
  let depth = 0
  const enter = (i: number) => {
    const node = postOrder[i]!
    const id = classOf[node]!
    if (onPath[id] === 0) sizes[id]!.retained += retained[node]!
    onPath[id]!++
    stack[depth] = i
    cursor[depth] = childStart[i]!
  }
  enter(root)
  while (depth >= 0) {
    const i = stack[depth]!
    const c = cursor[depth]!
    if (c < childStart[i + 1]!) {
      cursor[depth] = c + 1
      depth++
      enter(children[c]!)
    } else {
      onPath[classOf[postOrder[i]!]!]!--
      depth--
    }
  }

  const classes = new Map<string, ClassSize>()
  names.forEach((name, id) => { if (name !== '(synthetic)') classes.set(name, sizes[id]!) })
  return { nodes: count, total: retained[0]!, classes }
}

/** Reads and summarises one snapshot; its arrays are dropped before the next is read. */
export async function summariseSnapshot (file: string): Promise<HeapSummary> {
  const snapshot = await readHeapSnapshot(file)
  return classSizes(snapshot, dominatorTree(snapshot))
}

/** The `top` classes whose retained size grew most from `before` to `after`. */
export function grewMost (before: HeapSummary, after: HeapSummary, top: number): Growth[] {
  const none: ClassSize = { count: 0, self: 0, retained: 0 }
  const names = new Set([...before.classes.keys(), ...after.classes.keys()])
  return [...names]
    .map((name) => ({ name, before: before.classes.get(name) ?? none, after: after.classes.get(name) ?? none }))
    .sort((a, b) => (b.after.retained - b.before.retained) - (a.after.retained - a.before.retained) || a.name.localeCompare(b.name))
    .slice(0, top)
}
