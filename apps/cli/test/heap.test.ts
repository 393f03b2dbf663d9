import t from 'tap'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { readHeapSnapshot } from '../bench/heap-snapshot.js'
import { classSizes, dominatorTree, grewMost, summariseSnapshot } from '../bench/heap.js'

const nodeTypes = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'regexp', 'number', 'native', 'synthetic', 'concatenated string', 'sliced string', 'symbol', 'bigint', 'object shape']
const edgeTypes = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak']
const nodeFields = ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness']

interface TestNode { type: string, name: string, size: number, edges: Array<[type: string, to: number]> }

/** A snapshot file as V8 writes it (same sections, order and layout), of the graph given. */
function snapshotJson (graph: TestNode[]): string {
  const strings = ['', 'e']
  const intern = (s: string) => {
    if (!strings.includes(s)) strings.push(s)
    return strings.indexOf(s)
  }
  const rows = graph.map((n, i) => [nodeTypes.indexOf(n.type), intern(n.name), i * 2 + 1, n.size, n.edges.length, 0, 0].join(','))
  const edgeRows = graph.flatMap((n) => n.edges.map(([type, to]) => [edgeTypes.indexOf(type), 1, to * nodeFields.length].join(',')))
  const header = {
    meta: {
      node_fields: nodeFields,
      node_types: [nodeTypes, 'string', 'number', 'number', 'number', 'number', 'number'],
      edge_fields: ['type', 'name_or_index', 'to_node'],
      edge_types: [edgeTypes, 'string_or_number', 'node'],
      trace_function_info_fields: [],
      trace_node_fields: [],
      sample_fields: [],
      location_fields: []
    },
    node_count: graph.length,
    edge_count: edgeRows.length,
    trace_function_count: 0
  }
  return `{"snapshot":${JSON.stringify(header)},\n"nodes":[${rows.join(',\n')}],\n"edges":[${edgeRows.join(',\n')}],\n` +
    `"trace_function_infos":[],\n"trace_tree":[],\n"samples":[],\n"locations":[],\n"strings":[${strings.map((s) => JSON.stringify(s)).join(',\n')}]}\n`
}

/**
 * 0 root ─▶ 1 Store ─▶ 2 Entry ─▶ 3 Entry
 *   │          ├─▶ 4 Leaf ◀─ 5 Other ◀─ root      (4 is reached two ways: dominated by the root)
 *   │          ├┈shortcut┈▶ 3                      (not essential: 3 stays under 2)
 *   │          └┈weak┈▶ 6 Cached ─▶ 7 "hello"      (only a weak retainer: hung from the root)
 */
const graph: TestNode[] = [
  { type: 'synthetic', name: '', size: 0, edges: [['element', 1], ['element', 5]] },
  { type: 'object', name: 'Store', size: 10, edges: [['property', 2], ['property', 4], ['shortcut', 3], ['weak', 6]] },
  { type: 'object', name: 'Entry', size: 20, edges: [['property', 3]] },
  { type: 'object', name: 'Entry', size: 30, edges: [] },
  { type: 'object', name: 'Leaf', size: 5, edges: [] },
  { type: 'object', name: 'Other', size: 7, edges: [['property', 4]] },
  { type: 'object', name: 'Cached', size: 100, edges: [['internal', 7]] },
  { type: 'string', name: 'hello', size: 3, edges: [] }
]

t.test('retained sizes of a graph worked out by hand', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-heap-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'graph.heapsnapshot')
  await writeFile(file, snapshotJson(graph))

  // Chunks of 7 bytes: every marker and number is cut somewhere.
  const snapshot = await readHeapSnapshot(file, 7)
  t.same(Array.from(snapshot.nodes.slice(7, 14)), [3, snapshot.strings.indexOf('Store'), 3, 10, 4, 0, 0], 'the node table is read whole, across chunks')
  t.equal(snapshot.edges.length, 9 * 3)
  const tree = dominatorTree(snapshot)
  t.same(Array.from(tree.retained), [175, 60, 50, 30, 5, 7, 103, 3],
    'a node shared by two retainers belongs to neither; weak and non-root shortcut edges retain nothing')

  const summary = classSizes(snapshot, tree)
  t.equal(summary.total, 175, 'the total is every node once')
  t.same(Object.fromEntries(summary.classes), {
    Store: { count: 1, self: 10, retained: 60 },
    Entry: { count: 2, self: 50, retained: 50 },
    Leaf: { count: 1, self: 5, retained: 5 },
    Other: { count: 1, self: 7, retained: 7 },
    Cached: { count: 1, self: 100, retained: 103 },
    '(string)': { count: 1, self: 3, retained: 3 }
  }, 'an Entry under another Entry is counted once in its class; the synthetic root is left out')

  // The same graph with more held by the Store: the classes that grew, most first.
  const grown = structuredClone(graph)
  grown[2]!.size = 220
  grown[6]!.size = 150
  const grownFile = join(dir, 'grown.heapsnapshot')
  await writeFile(grownFile, snapshotJson(grown))
  const rows = grewMost(summary, await summariseSnapshot(grownFile), 2)
  t.same(rows.map((r) => [r.name, r.after.retained - r.before.retained]), [['Entry', 200], ['Store', 200]])
})

// A plain Node process holding 2000 items of a class in one holder, snapshotted: tap's own process
// has a heap whose snapshot takes half a minute to write.
const holding = `
  class HeapTestItem { constructor (payload) { this.payload = payload } }
  class HeapTestHolder { constructor () { this.items = [] } }
  const holder = new HeapTestHolder()
  for (let i = 0; i < 2000; i++) holder.items.push(new HeapTestItem(\`payload \${i} \`.repeat(8)))
  require('node:v8').writeHeapSnapshot(process.argv[1])
  if (holder.items.length !== 2000) process.exit(1)
`

t.test('a snapshot of a real process', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'chatsearch-heap-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'holder.heapsnapshot')
  await promisify(execFile)(process.execPath, ['-e', holding, file])

  const snapshot = await readHeapSnapshot(file)
  const summary = classSizes(snapshot, dominatorTree(snapshot))
  const selfOffset = snapshot.nodeFields.indexOf('self_size')
  const selfSizes = snapshot.nodes.filter((_, i) => i % snapshot.nodeFields.length === selfOffset)
  t.equal(summary.total, selfSizes.reduce((a, b) => a + b, 0), 'the root retains every node of the snapshot exactly once')
  const items = summary.classes.get('HeapTestItem')
  const holders = summary.classes.get('HeapTestHolder')
  t.equal(items?.count, 2000)
  t.equal(holders?.count, 1)
  // Each item alone keeps its payload string, which no other object holds.
  t.ok(items!.retained > items!.self + 2000 * 100, `the items retain their payloads (${items!.retained} bytes)`)
  t.ok(holders!.retained >= items!.retained, 'the holder retains all its items')
})
