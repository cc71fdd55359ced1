import { Button, Spinner } from "@radix-ui/themes";
import type { ComponentProps, ReactNode } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * A submit button that keeps keyboard focus while it cannot be used (issue 30 B3).
 *
 * A `disabled` button (Radix's `loading` sets it) loses focus the moment it is disabled: after
 * Start or Stop the keyboard user was dropped on the page body, dozens of Tabs from where they
 * were. With JavaScript this button is `aria-disabled` instead (announced as unavailable,
 * clicks and Enter do nothing) and shows its pending state with a spinner inside; without
 * JavaScript the page reloads after the post anyway, so it is plainly `disabled`.
 */
export function FocusKeepingButton({
  off,
  busy = false,
  children,
  ...rest
}: { off: boolean; busy?: boolean; children: ReactNode } & Omit<ComponentProps<typeof Button>, "disabled" | "loading" | "type">) {
  const hydrated = useHydrated();
  const unavailable = off || busy;
  return (
    <Button
      type="submit"
      variant="soft"
      {...rest}
      disabled={!hydrated && off}
      aria-disabled={hydrated && unavailable ? true : undefined}
      aria-busy={busy || undefined}
      data-unavailable={hydrated && unavailable ? "" : undefined}
      onClick={(e) => {
        if (unavailable) e.preventDefault();
        rest.onClick?.(e);
      }}
    >
      {busy ? <Spinner size="1" /> : null}
      {children}
    </Button>
  );
}
