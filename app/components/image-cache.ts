/**
 * Spec 1 §7 "Images are fetched and cached in a browser cache store whose name has a v1
 * suffix": the Cache Storage of platform pictures, shared by the gift pictures
 * (~/components/gift-image) and the Bowling Bots pictures (RemoteImage). Pictures the browser
 * may read (CORS) are stored in `gift-images-v1` and served from there as object URLs.
 */
export const GIFT_IMAGE_CACHE = "gift-images-v1";

/** Object URLs made from the cache, shared by every picture of the same gift on the page. */
const objectUrls = new Map<string, Promise<string | null>>();

async function cachedObjectUrl(url: string): Promise<string | null> {
  if (typeof caches === "undefined") return null;
  try {
    const cache = await caches.open(GIFT_IMAGE_CACHE);
    let response = await cache.match(url);
    if (!response) {
      const fetched = await fetch(url, { mode: "cors", credentials: "omit" });
      if (!fetched.ok || !(fetched.headers.get("content-type") ?? "").startsWith("image/")) return null;
      await cache.put(url, fetched.clone());
      response = fetched;
    }
    return URL.createObjectURL(await response.blob());
  } catch {
    // Unreachable host, no CORS, storage blocked: the plain <img> decides.
    return null;
  }
}

/** The picture at `url` from the cache as an object URL, or null when it cannot be read (no CORS, no Cache Storage, unreachable). */
export function objectUrlFor(url: string): Promise<string | null> {
  let pending = objectUrls.get(url);
  if (!pending) {
    pending = cachedObjectUrl(url);
    objectUrls.set(url, pending);
    // A failure is not remembered: the host may be back on the next mount.
    void pending.then((u) => (u ? undefined : objectUrls.delete(url)));
  }
  return pending;
}
