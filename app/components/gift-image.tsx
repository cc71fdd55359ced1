import { useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type CSSProperties } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";
import { DEFAULT_GIFT_IMAGE_BASE, findGift, giftImageUrl } from "~/data/gifts";
import { GIFT_IMAGE_CACHE, objectUrlFor } from "~/components/image-cache";

/**
 * A gift's picture (spec 1 §2 "Images: loading skeleton, then the image, or an error state
 * with an optional fallback image"; §7 "Images are fetched and cached in a browser cache
 * store whose name has a v1 suffix").
 *
 * The pictures live on the platform's image host, which may be slow or unreachable, so:
 * - A locally drawn fallback tile (the gift's nick on a colour derived from its name) sits
 *   under the picture from the first byte of HTML. Without JavaScript a failed <img> draws
 *   the same tile over itself (CSS `img::after`, which browsers render only for broken
 *   images), so no broken-image icon ever shows.
 * - With JavaScript the frame shows a pulsing skeleton until the picture loads, then the
 *   picture, or the fallback tile marked as the error state.
 * - Pictures the browser may read (CORS) are kept in Cache Storage `gift-images-v1` and
 *   served from there as object URLs on later visits; hosts without CORS still show their
 *   picture through the plain <img> (and the HTTP cache).
 */
export { GIFT_IMAGE_CACHE };

type State = "loading" | "loaded" | "error";

function hue(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return h;
}

export function giftInitials(name: string): string {
  const gift = findGift(name);
  if (gift && gift.nick.length <= 4) return gift.nick;
  const words = (gift?.nick ?? name).split(/\s+/).filter(Boolean);
  return words
    .slice(0, 3)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

/** The configured picture host (root loader, from GIFT_IMAGE_BASE_URL), else the platform's. */
function useGiftImageBase(): string {
  const root = useRouteLoaderData<{ giftImageBase?: string }>("root");
  return root?.giftImageBase ?? DEFAULT_GIFT_IMAGE_BASE;
}

export function GiftImage({ name, size = 32, className }: { name: string; size?: number; className?: string }) {
  const gift = findGift(name);
  const base = useGiftImageBase();
  const remote = gift ? giftImageUrl(gift.name, base) : undefined;
  const [state, setState] = useState<State>(remote ? "loading" : "error");
  const [src, setSrc] = useState(remote);
  const img = useRef<HTMLImageElement>(null);
  // Server HTML and the hydration render: "static" (fallback under the picture, no skeleton),
  // which is also what a browser without JavaScript keeps.
  const hydrated = useHydrated();

  useEffect(() => {
    if (!remote) return;
    let cancelled = false;
    // The picture may have settled before hydration attached onLoad/onError.
    const el = img.current;
    if (el?.complete) setState(el.naturalWidth > 0 ? "loaded" : "error");
    void objectUrlFor(remote).then((objectUrl) => {
      if (!cancelled && objectUrl) {
        setSrc(objectUrl);
        setState("loaded");
      }
    });
    return () => {
      cancelled = true;
    };
  }, [remote]);

  const style = { "--gift-size": `${size}px`, "--gift-hue": hue(name) } as CSSProperties;
  return (
    <span className={`gt-gift-image${className ? ` ${className}` : ""}`} data-state={hydrated ? state : "static"} style={style} aria-hidden>
      {/* The initials are drawn by CSS from the attribute, so they never become part of
          the text around the picture (labels, row names). */}
      <span className="gt-gift-fallback" data-initials={giftInitials(name)} />
      {/* After an error the picture is dropped, not just hidden: no broken-image icon. */}
      {src && !(hydrated && state === "error") ? (
        <img
          ref={img}
          src={src}
          alt=""
          data-initials={giftInitials(name)}
          width={size}
          height={size}
          loading="lazy"
          decoding="async"
          draggable={false}
          onLoad={() => setState("loaded")}
          onError={() => setState("error")}
        />
      ) : null}
    </span>
  );
}
