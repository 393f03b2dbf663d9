/**
 * A bench's or an eval's life, bounded: what it started is stopped, in the reverse order, whether it
 * ends, fails, is interrupted (SIGINT, SIGTERM) or runs past its deadline. Six scripts wrote this
 * again; it lives here once.
 */
export interface BoundedRun {
  /** Registers a clean-up step; the steps run last first, each once, a failing one logged. */
  defer: (step: () => unknown) => void
  /** Runs the clean-up steps; every call answers the same run. */
  cleanup: () => Promise<void>
  /** Logs `reason`, cleans up and exits with `code`; a second call (a second Ctrl-C) changes nothing. */
  abort: (reason: string, code: number) => void
  /** Whether the clean-up has begun: a long loop stops when it has. */
  stopping: () => boolean
}

export interface BoundedRunOptions {
  log: (line: string) => void
  /** After this long the run is aborted with exit code 1. */
  deadlineMs: number
}

export function boundedRun ({ log, deadlineMs }: BoundedRunOptions): BoundedRun {
  const steps: Array<() => unknown> = []
  let begun = false
  let cleaning: Promise<void> | undefined
  const cleanup = () => {
    // Set before the first step runs: that step runs before `cleaning` is assigned.
    begun = true
    cleaning ??= (async () => {
      for (const step of steps.reverse()) {
        try {
          await step()
        } catch (err) {
          log(`clean-up step failed: ${String(err)}`)
        }
      }
    })()
    return cleaning
  }
  let aborting = false
  const abort = (reason: string, code: number) => {
    // A second Ctrl-C (or the signal scripts/bench.mjs forwards) must not cut the clean-up short.
    if (aborting) return
    aborting = true
    log(reason)
    cleanup().then(() => process.exit(code), () => process.exit(code))
  }
  process.on('SIGINT', () => abort('interrupted, cleaning up', 130))
  process.on('SIGTERM', () => abort('terminated, cleaning up', 143))
  setTimeout(() => abort(`still running after ${deadlineMs / 1000} s, giving up`, 1), deadlineMs).unref()
  return { defer: (step) => { steps.push(step) }, cleanup, abort, stopping: () => begun }
}
