/**
 * Reads a request body up to `limit` bytes. Past the limit the read stops (the rest is never
 * buffered) and `tooLarge(limit)` decides what is thrown: a `{error,message}` 413 for `/api`
 * (app/http/api.server.ts), a plain-text 413 for forms (app/utils/forms.server.ts), nothing for
 * the audit summary (app/http/route-guard.server.ts).
 */
export async function readBodyUpTo(
  request: { body: ReadableStream<Uint8Array> | null },
  limit: number,
  tooLarge: (limit: number) => never,
): Promise<Buffer<ArrayBuffer>> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
