import { type ComponentProps } from "react";
import { lazyComponent } from "~/components/ui/lazy-component";
import { useOpenedOnce } from "~/components/ui/lazy-confirm-dialog";
import { CollectionDialog as CollectionDialogNow } from "./collection-dialog";
import { CompanionDialog as CompanionDialogNow } from "./companion-dialog";

/**
 * The companion and collection dialogs, loaded on first open (CONVENTIONS rule 15, as All
 * Characters does): Radix Dialog is not part of the first load of /gifts. On the server they
 * render eagerly, so `?dialog=companion|collection&account=…` (no JavaScript) is in the HTML.
 */
const CompanionDialogLazy = lazyComponent(() => import("./companion-dialog").then((m) => m.CompanionDialog), {
  server: import.meta.env.SSR ? CompanionDialogNow : undefined,
});
const CollectionDialogLazy = lazyComponent(() => import("./collection-dialog").then((m) => m.CollectionDialog), {
  server: import.meta.env.SSR ? CollectionDialogNow : undefined,
});

export function CompanionDialog(props: ComponentProps<typeof CompanionDialogNow>) {
  return useOpenedOnce(props.open) ? <CompanionDialogLazy {...props} /> : null;
}

export function CollectionDialog(props: ComponentProps<typeof CollectionDialogNow>) {
  return useOpenedOnce(props.open) ? <CollectionDialogLazy {...props} /> : null;
}
