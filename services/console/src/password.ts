import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// OWASP's minimum for scrypt (N=2^17, r=8, p=1) costs ~128 MiB and ~0.3 s a hash; the console
// signs people in rarely, so the cost is affordable and slows a stolen table's guessing.
const PARAMS = { N: 2 ** 17, r: 8, p: 1 }
const KEY_BYTES = 32
const SALT_BYTES = 16

function derive (password: string, salt: Buffer, params: { N: number, r: number, p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => { if (err === null) resolve(key); else reject(err) })
  })
}

/** `scrypt$N$r$p$salt$hash`, base64: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword (password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, PARAMS)
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$')
}

/** Whether `password` hashes to `stored`, compared in constant time; false for a malformed hash. */
export async function verifyPassword (password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false
  const expected = Buffer.from(hash, 'base64')
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/** Hashed once: checked against when no user has the name, so that an unknown name takes as long as a wrong password. */
let decoy: Promise<string> | undefined
export const decoyHash = () => { decoy ??= hashPassword(randomBytes(16).toString('hex')); return decoy }
