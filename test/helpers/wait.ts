/**
 * Polls `probe` until it answers something other than undefined, and answers that; fails with `what`
 * after `timeoutMs`. For conditions a test cannot be told about (a background job's end).
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
