/**
 * `run` once, its promise shared by every caller; a failure is forgotten, so the next call tries again (creating a
 * repository's indexes at first use: a database that was down then must not leave them missing for good).
 */
export function onceUntilFailure<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= run().catch((err: unknown) => {
      running = undefined;
      throw err;
    });
    return running;
  };
}
