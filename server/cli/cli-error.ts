/** A failure the command-line tools report as one line on stderr, and the exit code they end with. */
export class CliError extends Error {
  constructor(
    message: string,
    /** 1 for a failure, 2 for a usage error (what was asked cannot be done as asked). */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
