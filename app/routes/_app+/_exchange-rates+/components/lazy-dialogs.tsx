import { lazy, Suspense, useState, type ComponentProps, type ComponentType } from "react";
import { AddOutputDialog as AddOutputDialogNow } from "./add-output-dialog";
import { AddRatesDialog as AddRatesDialogNow } from "./add-rates-dialog";
import { ImportDialog as ImportDialogNow } from "./import-dialog";

/**
 * The section's dialogs, loaded on first open instead of with the page.
 *
 * Performance trick (CONVENTIONS rule 15), figures in bench/README.md "First-load weight",
 * /exchange-rates: the add, add-output, import and delete-all dialogs (with conform's form
 * hooks and the Radix Dialog / AlertDialog they use) are a chunk of the first load that most
 * visits never open.
 *
 * - In the browser each dialog is `React.lazy`, and mounts the first time it opens (then
 *   stays mounted, so closing it animates and returns focus as before).
 * - On the server the same components are imported eagerly (`import.meta.env.SSR` is a build
 *   constant, so the client bundle drops that branch and its imports), so a URL that opens a
 *   dialog (`?dialog=add`, the no-JavaScript path) still gets it in the HTML, in one pass.
 *   The browser hydrates that HTML when the chunk arrives (the Suspense boundary keeps the
 *   server's markup until then).
 */
function clientLazy<P>(load: () => Promise<ComponentType<P>>) {
  return lazy(() => load().then((component) => ({ default: component })));
}

const AddRatesDialogLazy = import.meta.env.SSR ? AddRatesDialogNow : clientLazy(() => import("./add-rates-dialog").then((m) => m.AddRatesDialog));
const AddOutputDialogLazy = import.meta.env.SSR ? AddOutputDialogNow : clientLazy(() => import("./add-output-dialog").then((m) => m.AddOutputDialog));
const ImportDialogLazy = import.meta.env.SSR ? ImportDialogNow : clientLazy(() => import("./import-dialog").then((m) => m.ImportDialog));
// Rendered only after hydration (the no-JavaScript path is <ConfirmPanel>), so never on the server.
const ConfirmDialogLazy = clientLazy(() => import("~/components/ui/confirm-dialog").then((m) => m.ConfirmDialog));

/** True from the first render where `open` is true on. */
function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}

export function AddRatesDialog(props: ComponentProps<typeof AddRatesDialogNow>) {
  const mounted = useOpenedOnce(props.open);
  return mounted ? (
    <Suspense fallback={null}>
      <AddRatesDialogLazy {...props} />
    </Suspense>
  ) : null;
}

export function AddOutputDialog(props: ComponentProps<typeof AddOutputDialogNow>) {
  const mounted = useOpenedOnce(props.input !== null);
  return mounted ? (
    <Suspense fallback={null}>
      <AddOutputDialogLazy {...props} />
    </Suspense>
  ) : null;
}

export function ImportDialog(props: ComponentProps<typeof ImportDialogNow>) {
  const mounted = useOpenedOnce(props.open);
  return mounted ? (
    <Suspense fallback={null}>
      <ImportDialogLazy {...props} />
    </Suspense>
  ) : null;
}

export function ConfirmDialog(props: ComponentProps<typeof ConfirmDialogLazy>) {
  const mounted = useOpenedOnce(!!props.open);
  return mounted ? (
    <Suspense fallback={null}>
      <ConfirmDialogLazy {...props} />
    </Suspense>
  ) : null;
}
