import { InvalidArgumentError } from 'commander'

/** An option's value as a whole number from `min` to `max`, or a usage error. */
export const integer = (min: number, max: number) => (value: string): number => {
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`)
  return n
}
