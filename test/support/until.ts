// Polls `read` until `done` holds of what it returns, then returns that; past the deadline, fails
// naming what it waited for and the last value seen.
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, { timeoutMs = 60_000, everyMs = 100 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
