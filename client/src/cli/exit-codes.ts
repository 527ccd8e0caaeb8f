/** The CLI's exit codes (docs/cli.md): a script can tell a denial from an expiry from a failure. */
export const ExitCode = {
  ok: 0,
  /** The server could not be reached, refused the request, or answered something unexpected. */
  failure: 1,
  /** The command line is wrong, or `link` has no login to use. */
  usage: 2,
  /** The person denied the request. */
  denied: 3,
  /** Nobody approved the request before it expired. */
  expired: 4,
  /** Interrupted (Ctrl-C): 128 + SIGINT, as shells report it. */
  cancelled: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the CLI explains in its message (no stack trace), ending it with `exitCode`. */
export class CliFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.failure,
  ) {
    super(message);
  }
}
