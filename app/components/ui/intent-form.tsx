import { useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import { HiddenFields, NoJsRedirect } from "./no-js";
import { useCanWrite } from "./write-only";

/**
 * A form posting one intent to a route action (CONVENTIONS rule 5, "form for navigation,
 * fetcher for in-place"): a fetcher with JavaScript, a plain POST answered by a redirect back
 * here without it (`NoJsRedirect`). Every intent changes something, so a viewer gets nothing
 * (issue 21). `children` may be a function of `busy`, for the pressed button's pending state,
 * and of the fetcher's last answer (`useKeptForm`'s `fetcherData`: a refused form's fields and reason).
 */
export function IntentForm({
  action,
  intent,
  fields = {},
  children,
  className,
  label,
}: {
  /** The route whose action takes the intent. */
  action: string;
  intent?: string;
  fields?: Record<string, string>;
  children: ReactNode | ((busy: boolean, answer: unknown) => ReactNode);
  className?: string;
  /** A name for the form, when it groups controls (it is then a landmark-less named form). */
  label?: string;
}) {
  const fetcher = useFetcher();
  const canWrite = useCanWrite();
  const busy = fetcher.state !== "idle";
  if (!canWrite) return null;
  return (
    <fetcher.Form method="post" action={action} className={className} aria-label={label}>
      <HiddenFields fields={intent ? { intent, ...fields } : fields} />
      <NoJsRedirect />
      {typeof children === "function" ? children(busy, fetcher.data) : children}
    </fetcher.Form>
  );
}
