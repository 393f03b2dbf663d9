import t from 'tap'
import { createPool } from '../src/database.js'
import { testDatabase } from '../src/testing.js'

t.test('a checked-out client whose connection dies does not crash the process', async (t) => {
  const pool = createPool(await testDatabase(t), 2)
  t.teardown(() => pool.end())
  const client = await pool.connect()
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
  // the server ends the connection under the client while a handler holds it (a transaction, say)
  await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid])
  await new Promise((resolve) => setTimeout(resolve, 300))
  await t.rejects(client.query('SELECT 1'), 'the holder learns it from its next query')
  client.release(true)
  const again = await pool.query<{ one: number }>('SELECT 1 AS one')
  t.equal(again.rows[0]!.one, 1, 'the pool serves on with a new connection')
})
