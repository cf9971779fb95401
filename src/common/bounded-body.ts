/**
 * Reads at most `limit` bytes of a fetch Response's body; null when there are more (the rest is not
 * read: a misbehaving server cannot make us buffer what it likes). Used by every client of a service
 * outside ours (interviewer agents, speech servers).
 */
export async function readBoundedBody(response: Response, limit: number): Promise<Buffer | null> {
  if (Number(response.headers.get('content-length')) > limit) {
    await response.body?.cancel();
    return null;
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
