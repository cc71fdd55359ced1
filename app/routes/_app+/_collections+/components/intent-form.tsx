/**
 * The piece of the Collections screen that the floating panel also uses. Kept apart from
 * collections-screen.tsx so the shell (which renders the panel on every section) does not
 * load the screen and its zod schemas (bench/first-load.ts).
 */
import { useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { useCanWrite } from "~/components/ui/write-only";

export const COLLECTIONS_ACTION = "/collections";
const ACTION = COLLECTIONS_ACTION;

/**
 * A form posting one intent to the Collections action: a fetcher with JS, a plain POST + redirect
 * without. Every intent changes something, so a viewer gets nothing here (issue 21).
 */
export function IntentForm({
  intent,
  fields = {},
  children,
  className,
  label,
}: {
  intent?: string;
  fields?: Record<string, string>;
  children: ReactNode | ((busy: boolean) => ReactNode);
  className?: string;
  label?: string;
}) {
  const fetcher = useFetcher();
  const canWrite = useCanWrite();
  const busy = fetcher.state !== "idle";
  if (!canWrite) return null;
  return (
    <fetcher.Form method="post" action={ACTION} className={className} aria-label={label}>
      <HiddenFields fields={intent ? { intent, ...fields } : fields} />
      <NoJsRedirect />
      {typeof children === "function" ? children(busy) : children}
    </fetcher.Form>
  );
}
