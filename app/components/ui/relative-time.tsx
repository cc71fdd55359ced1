import { useEffect, useState } from "react";

/**
 * Spec 1 §4 "Relative time: under 60 s is just now, under 1 h minutes, under 24 h hours,
 * else days" (thresholds 60 s, 1 h, 24 h, spec 1 §9).
 */
export function formatRelative(date: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - date.getTime()) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/** Server-side text for the title: unambiguous and the same on every machine. */
function formatUtc(date: Date) {
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/**
 * `<time dateTime title>`: the relative time, the absolute time on hover. The server
 * renders UTC; after hydration the browser's own time zone and locale take over, and the
 * text ticks every 30 s.
 */
export function RelativeTime({ value, className }: { value: string | Date; className?: string }) {
  const date = typeof value === "string" ? new Date(value) : value;
  const [now, setNow] = useState<Date | null>(null);

  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);

  if (Number.isNaN(date.getTime())) return <time className={className}>unknown</time>;
  const title = now ? date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" }) : formatUtc(date);
  return (
    <time dateTime={date.toISOString()} title={title} className={className} suppressHydrationWarning>
      {formatRelative(date, now ?? new Date())}
    </time>
  );
}
