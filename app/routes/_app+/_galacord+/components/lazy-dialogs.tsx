import { type ComponentProps } from "react";
import { lazyComponent } from "~/components/ui/lazy-component";
import { useOpenedOnce } from "~/components/ui/lazy-confirm-dialog";
import { ChangeChannelDialog as ChangeChannelDialogNow } from "./change-channel-dialog";
import { ChangePlanetDialog as ChangePlanetDialogNow } from "./change-planet-dialog";
import { ConnectNewDialog as ConnectNewDialogNow } from "./connect-new-dialog";
import { RelayOptionsDialog as RelayOptionsDialogNow } from "./relay-options-dialog";

/**
 * GalaCord's dialogs, loaded on first open (CONVENTIONS rule 15, as the other sections do):
 * Radix Dialog is not part of the first load of /galacord. On the server they render eagerly,
 * so `?new=1`, `?channel=…`, `?planet=…` and `?options=…` (no JavaScript) are in the HTML.
 */
const ConnectNewDialogLazy = lazyComponent(() => import("./connect-new-dialog").then((m) => m.ConnectNewDialog), {
  server: import.meta.env.SSR ? ConnectNewDialogNow : undefined,
});
const ChangeChannelDialogLazy = lazyComponent(() => import("./change-channel-dialog").then((m) => m.ChangeChannelDialog), {
  server: import.meta.env.SSR ? ChangeChannelDialogNow : undefined,
});
const ChangePlanetDialogLazy = lazyComponent(() => import("./change-planet-dialog").then((m) => m.ChangePlanetDialog), {
  server: import.meta.env.SSR ? ChangePlanetDialogNow : undefined,
});
const RelayOptionsDialogLazy = lazyComponent(() => import("./relay-options-dialog").then((m) => m.RelayOptionsDialog), {
  server: import.meta.env.SSR ? RelayOptionsDialogNow : undefined,
});

export function ConnectNewDialog(props: ComponentProps<typeof ConnectNewDialogNow>) {
  return useOpenedOnce(props.open) ? <ConnectNewDialogLazy {...props} /> : null;
}

export function ChangeChannelDialog(props: ComponentProps<typeof ChangeChannelDialogNow>) {
  return useOpenedOnce(props.open) ? <ChangeChannelDialogLazy {...props} /> : null;
}

export function ChangePlanetDialog(props: ComponentProps<typeof ChangePlanetDialogNow>) {
  return useOpenedOnce(props.open) ? <ChangePlanetDialogLazy {...props} /> : null;
}

export function RelayOptionsDialog(props: ComponentProps<typeof RelayOptionsDialogNow>) {
  return useOpenedOnce(props.open) ? <RelayOptionsDialogLazy {...props} /> : null;
}
