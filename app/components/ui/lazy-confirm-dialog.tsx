import { useState, type ComponentProps } from "react";
import { ConfirmDialog as ConfirmDialogNow } from "~/components/ui/confirm-dialog";
import { lazyComponent } from "~/components/ui/lazy-component";

/**
 * `<ConfirmDialog>` whose code (Radix AlertDialog) loads the first time it opens.
 *
 * Performance trick (CONVENTIONS rule 15), figures in bench/README.md "First-load weight"
 * (/exchange-rates delete-all, /settings revoke): most visits never open a confirmation.
 * It is rendered only after hydration (the no-JavaScript path is `<ConfirmPanel>`); `server`
 * keeps the server build free of dynamic imports all the same (see lazyComponent).
 */
const ConfirmDialogLazy = lazyComponent(() => import("~/components/ui/confirm-dialog").then((m) => m.ConfirmDialog), {
  server: import.meta.env.SSR ? ConfirmDialogNow : undefined,
});

/** True from the first render where `open` is true on: a dialog mounts on first open and stays. */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

export function LazyConfirmDialog(props: ComponentProps<typeof ConfirmDialogNow>) {
  return useOpenedOnce(!!props.open) ? <ConfirmDialogLazy {...props} /> : null;
}
