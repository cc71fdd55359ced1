import { useState, type ComponentProps } from "react";
import { lazyComponent } from "~/components/ui/lazy-component";
import { ConfirmDialog as ConfirmDialogNow } from "~/components/ui/confirm-dialog";
import { AddOutputDialog as AddOutputDialogNow } from "./add-output-dialog";
import { AddRatesDialog as AddRatesDialogNow } from "./add-rates-dialog";
import { ImportDialog as ImportDialogNow } from "./import-dialog";

/**
 * The section's dialogs, loaded on first open instead of with the page.
 *
 * Performance trick (CONVENTIONS rule 15), figures in bench/README.md "First-load weight",
 * /exchange-rates: the add, add-output, import and delete-all dialogs (with conform's form
 * code and the Radix Dialog / AlertDialog they use) are part of the first load that most
 * visits never open. Each mounts the first time it opens and then stays mounted (closing
 * animates and returns focus as before). On the server they are rendered eagerly, so a URL
 * that opens one (the no-JavaScript path) gets it in the HTML (`lazyComponent`).
 */
const AddRatesDialogLazy = lazyComponent(() => import("./add-rates-dialog").then((m) => m.AddRatesDialog), {
  server: import.meta.env.SSR ? AddRatesDialogNow : undefined,
});
const AddOutputDialogLazy = lazyComponent(() => import("./add-output-dialog").then((m) => m.AddOutputDialog), {
  server: import.meta.env.SSR ? AddOutputDialogNow : undefined,
});
const ImportDialogLazy = lazyComponent(() => import("./import-dialog").then((m) => m.ImportDialog), {
  server: import.meta.env.SSR ? ImportDialogNow : undefined,
});
// Rendered only after hydration (the no-JavaScript path is <ConfirmPanel>); `server` keeps
// the server build free of dynamic imports all the same (see lazyComponent).
const ConfirmDialogLazy = lazyComponent(() => import("~/components/ui/confirm-dialog").then((m) => m.ConfirmDialog), {
  server: import.meta.env.SSR ? ConfirmDialogNow : undefined,
});

/** True from the first render where `open` is true on. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

export function AddRatesDialog(props: ComponentProps<typeof AddRatesDialogNow>) {
  return useOpenedOnce(props.open) ? <AddRatesDialogLazy {...props} /> : null;
}

export function AddOutputDialog(props: ComponentProps<typeof AddOutputDialogNow>) {
  return useOpenedOnce(props.input !== null) ? <AddOutputDialogLazy {...props} /> : null;
}

export function ImportDialog(props: ComponentProps<typeof ImportDialogNow>) {
  return useOpenedOnce(props.open) ? <ImportDialogLazy {...props} /> : null;
}

export function ConfirmDialog(props: ComponentProps<typeof ConfirmDialogNow>) {
  return useOpenedOnce(!!props.open) ? <ConfirmDialogLazy {...props} /> : null;
}
