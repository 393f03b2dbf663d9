import t from 'tap'
import { hashPassword, verifyPassword } from '../src/password.js'

t.test('passwords are stored as salted scrypt hashes', async (t) => {
  const hash = await hashPassword('correct horse battery staple')
  t.match(hash, /^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/, 'the parameters travel with the hash')
  t.notMatch(hash, /horse/)
  t.not(await hashPassword('correct horse battery staple'), hash, 'a new salt each time')
  t.equal(await verifyPassword('correct horse battery staple', hash), true)
  t.equal(await verifyPassword('correct horse battery stapler', hash), false)
  t.equal(await verifyPassword('caf\u00e9 au lait 123', await hashPassword('cafe\u0301 au lait 123')), true, 'Unicode is normalised (NFC)')
  t.equal(await verifyPassword('x', 'md5$abc'), false, 'a hash of another scheme never matches')
  const results = await Promise.all(Array.from({ length: 5 }, (_, n) => verifyPassword(n === 2 ? 'correct horse battery staple' : 'no', hash)))
  t.same(results, [false, false, true, false, false], 'many at once all get their answer')
})
