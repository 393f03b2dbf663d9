import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// One of OWASP's equivalent minimums for scrypt: N=2^15, r=8, p=3 costs as much time as N=2^17, p=1
// but a quarter of the memory (32 MiB a hash), which matters when many sign-ins come at once.
const PARAMS = { N: 2 ** 15, r: 8, p: 3 }
/** Hashes computed at once; the rest wait, so that a flood of sign-ins cannot exhaust memory or the thread pool. */
const CONCURRENT = 2
const KEY_BYTES = 32
const SALT_BYTES = 16

let running = 0
const waiting: Array<() => void> = []

async function derive (password: string, salt: Buffer, params: { N: number, r: number, p: number }): Promise<Buffer> {
  // A finished hash hands its slot straight to the next in line.
  if (running < CONCURRENT) running++
  else await new Promise<void>((resolve) => waiting.push(resolve))
  try {
    const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r }
    return await new Promise((resolve, reject) => {
      scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => { if (err === null) resolve(key); else reject(err) })
    })
  } finally {
    const next = waiting.shift()
    if (next === undefined) running--
    else next()
  }
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
