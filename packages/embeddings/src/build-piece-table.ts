// Run by the package's prepare.mjs (at pnpm install, and in the image build): writes the static
// embedder's piece table into data/, unless a table of the right size is there already. A table that
// cannot be written fails the install instead of leaving every start to build it again.
import { loadPieceTable, PIECE_TABLE_FILE, savePieceTable } from './piece-table.js'
import { readVocabulary } from './pieces.js'

const started = performance.now()
const { table, built } = await loadPieceTable(readVocabulary())
if (built) await savePieceTable(table)
process.stdout.write(built
  ? `built the static embedder's piece table in ${((performance.now() - started) / 1000).toFixed(1)} s: ${PIECE_TABLE_FILE}\n`
  : `the static embedder's piece table is in place: ${PIECE_TABLE_FILE}\n`)
