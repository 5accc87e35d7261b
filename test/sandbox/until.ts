/** Checks `condition` every 10 ms until it holds; fails after `timeoutMs` (bounded in time and count). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; attempt < timeoutMs; attempt++) {
    if (await condition()) return;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting: ${what}`);
}
