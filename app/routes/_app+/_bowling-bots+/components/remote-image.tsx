import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * A platform picture (spec 1 §2 "Images: loading skeleton, then the image, or an error state
 * with an optional fallback image"). With JavaScript: a pulsing skeleton until the picture
 * loads, then the picture, or the error state (the fallback, else a "?" tile). Without
 * JavaScript the plain <img> shows (and a broken one is hidden behind the tile by CSS).
 */
export function RemoteImage({ src, alt, size = 24, fallback }: { src: string | null | undefined; alt: string; size?: number; fallback?: string }) {
  const hydrated = useHydrated();
  const img = useRef<HTMLImageElement>(null);
  const [state, setState] = useState<"loading" | "loaded" | "error">(src ? "loading" : "error");
  const [current, setCurrent] = useState(src || fallback || "");
  useEffect(() => {
    setCurrent(src || fallback || "");
    setState(src ? "loading" : "error");
  }, [src, fallback]);
  useEffect(() => {
    // Loaded (or failed) before hydration attached the handlers.
    const el = img.current;
    if (el?.complete && current) setState(el.naturalWidth > 0 ? (current === src ? "loaded" : "error") : "error");
  }, [current, src]);
  const onError = () => {
    if (fallback && current !== fallback) setCurrent(fallback);
    else setState("error");
  };
  return (
    <span className="gt-remote-img" data-state={hydrated ? state : "static"} style={{ width: size, height: size }}>
      {current ? (
        <img
          ref={img}
          src={current}
          alt={alt}
          width={size}
          height={size}
          loading="lazy"
          onLoad={() => setState(current === src ? "loaded" : "error")}
          onError={onError}
        />
      ) : (
        <span role="img" aria-label={alt} />
      )}
    </span>
  );
}
