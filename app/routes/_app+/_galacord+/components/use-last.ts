import { useRef } from "react";

/** The last non-null value: a closing dialog keeps showing what it showed while it animates out. */
export function useLast<T>(value: T | null | undefined): T | null {
  const last = useRef<T | null>(value ?? null);
  if (value) last.current = value;
  return last.current;
}
