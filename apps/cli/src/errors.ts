/** A mistake in how a command was called: exit code 2. */
export class UsageError extends Error {}

/** A command that was understood but cannot be done (an unknown project or key, a bad file): exit code 1. */
export class CommandError extends Error {}
