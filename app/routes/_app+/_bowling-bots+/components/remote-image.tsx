import { useEffect, useRef, useState } from "react";
import { objectUrlFor } from "~/components/image-cache";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * A platform picture (spec 1 §2 "Images: loading skeleton, then the image, or an error state
 * with an optional fallback image"). With JavaScript: a pulsing skeleton until the picture
 * loads, then the picture, or the error state (the fallback, else a "?" tile). Without
 * JavaScript the plain <img> shows (and a broken one is hidden behind the tile by CSS).
 * Spec 1 §7 "Images are fetched and cached in a browser cache store whose name has a v1
 * suffix": pictures the browser may read (CORS) go through Cache Storage `gift-images-v1`
 * (shared with the gift pictures, ~/components/gift-image) and show as object URLs.
 */
export function RemoteImage({
  src,
  alt,
  size = 24,
  fallback,
  initials,
  round,
}: {
  src: string | null | undefined;
  alt: string;
  size?: number;
  /** A fallback image tried when `src` fails. */
  fallback?: string;
  /** The error state (and the no-picture state) shows these letters instead of the "?" tile. */
  initials?: string;
  round?: boolean;
}) {
  const hydrated = useHydrated();
  const img = useRef<HTMLImageElement>(null);
  const [state, setState] = useState<"loading" | "loaded" | "error">(src ? "loading" : "error");
  const [current, setCurrent] = useState(src || fallback || "");
  /** The object URL `src` was served as from the cache, if it was. */
  const cached = useRef<string | null>(null);
  useEffect(() => {
    setCurrent(src || fallback || "");
    setState(src ? "loading" : "error");
    cached.current = null;
    if (!src) return;
    let cancelled = false;
    void objectUrlFor(src).then((objectUrl) => {
      if (cancelled || !objectUrl) return;
      cached.current = objectUrl;
      setCurrent(objectUrl);
    });
    return () => {
      cancelled = true;
    };
  }, [src, fallback]);
  const isPicture = (url: string) => url === src || (cached.current !== null && url === cached.current);
  useEffect(() => {
    // Loaded (or failed) before hydration attached the handlers.
    const el = img.current;
    if (el?.complete && current) setState(el.naturalWidth > 0 ? (isPicture(current) ? "loaded" : "error") : "error");
    // eslint-disable-next-line react-hooks/exhaustive-deps -- isPicture reads src and the ref
  }, [current, src]);
  const onError = () => {
    if (fallback && current !== fallback) setCurrent(fallback);
    else setState("error");
  };
  const shape = { width: size, height: size, borderRadius: round ? "50%" : undefined };
  if (initials !== undefined && (!current || (hydrated && state === "error"))) {
    return (
      <span className="gt-remote-img gt-initials" data-state="error" role="img" aria-label={alt} style={{ ...shape, fontSize: Math.round(size * 0.4) }}>
        {initials}
      </span>
    );
  }
  return (
    <span className="gt-remote-img" data-state={hydrated ? state : "static"} style={shape}>
      {current ? (
        <img
          ref={img}
          src={current}
          alt={alt}
          width={size}
          height={size}
          loading="lazy"
          onLoad={() => setState(isPicture(current) ? "loaded" : "error")}
          onError={onError}
        />
      ) : (
        <span role="img" aria-label={alt} />
      )}
    </span>
  );
}
