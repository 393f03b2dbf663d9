/** What each command is given: the environment it reads and where its result goes. */
export interface CommandContext {
  env: NodeJS.ProcessEnv
  /** Prints a command's result: `value` as one line of JSON with --json, `human` otherwise. */
  print: (value: unknown, human: string) => void
}
