import { type ComponentProps } from "react";
import { lazyComponent } from "~/components/ui/lazy-component";
import { useOpenedOnce } from "~/components/ui/lazy-confirm-dialog";
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
export function AddRatesDialog(props: ComponentProps<typeof AddRatesDialogNow>) {
  return useOpenedOnce(props.open) ? <AddRatesDialogLazy {...props} /> : null;
}

export function AddOutputDialog(props: ComponentProps<typeof AddOutputDialogNow>) {
  return useOpenedOnce(props.input !== null) ? <AddOutputDialogLazy {...props} /> : null;
}

export function ImportDialog(props: ComponentProps<typeof ImportDialogNow>) {
  return useOpenedOnce(props.open) ? <ImportDialogLazy {...props} /> : null;
}

export { LazyConfirmDialog as ConfirmDialog } from "~/components/ui/lazy-confirm-dialog";
