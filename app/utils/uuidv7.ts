/**
 * Time-ordered UUIDs (RFC 9562 version 7): 48 bits of Unix milliseconds, then a 12-bit counter
 * that grows within the millisecond, then random bits. PostgreSQL compares uuids byte by byte,
 * so rows written one after another by this process sort in the order they were written even
 * when their timestamps are equal (the embedded database's clock has millisecond steps, and a
 * burst of log lines often lands in one). Ids from other processes still sort by their time.
 */
/** A generator with its own clock and counter (the app uses one, `uuidv7`; tests make their own). */
export function uuidv7Generator(): (now?: number) => string {
  let lastMs = 0;
  let counter = 0;
  return (now: number = Date.now()) => {
    if (now > lastMs) {
      lastMs = now;
      // A random start leaves room to count up, and keeps two processes' ids apart.
      counter = Math.floor(Math.random() * 0x400);
    } else if (++counter > 0xfff) {
      // 3,072+ ids in one millisecond: borrow the next one, so the order still holds.
      lastMs += 1;
      counter = 0;
    }
    const bytes = new Uint8Array(16);
    globalThis.crypto.getRandomValues(bytes);
    let ms = lastMs;
    for (let i = 5; i >= 0; i--) {
      bytes[i] = ms % 256;
      ms = Math.floor(ms / 256);
    }
    bytes[6] = 0x70 | (counter >> 8);
    bytes[7] = counter & 0xff;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

const next = uuidv7Generator();
/** The process's generator: each id sorts after the one before. */
export const uuidv7 = (): string => next();
