/**
 * Stops start-up with exit status 1, every problem on stderr: where a person, and a harness waiting
 * for the listening announcement, reads why the service did not start.
 */
export const refuseToStart = (problems: ReadonlyArray<string>): never => {
  process.stderr.write(`petstore: cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n`)
  process.exit(1)
}
