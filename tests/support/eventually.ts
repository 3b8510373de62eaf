/**
 * Retries `check` until it stops throwing, at most `timeoutMs`. Read models
 * and the global log catch up a little after a commit, so tests poll for the
 * outcome; this is no timing assertion.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
