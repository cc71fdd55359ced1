import { MixerHorizontalIcon } from "~/components/ui/icons";
import { IconButton } from "@radix-ui/themes";
import { lazyComponent } from "~/components/ui/lazy-component";
import { useHydrated } from "~/components/ui/use-hydrated";
import { ViewSettingsPopover as ViewSettingsPopoverNow } from "./view-settings-popover";

/**
 * Performance trick (CONVENTIONS rule 15): the popover (Radix Popover with its focus and
 * scroll-lock code) loads after the page, bench/README.md "First-load weight",
 * /exchange-rates. Until it arrives the same button shows, inert.
 */
const ViewSettingsPopover = lazyComponent(() => import("./view-settings-popover").then((m) => m.ViewSettingsPopover), {
  // Never rendered on the server (it needs JavaScript), but imported there so the server
  // build has no dynamic import to split into chunks (server code finds files relative to
  // its own module, e.g. the migrations).
  server: import.meta.env.SSR ? ViewSettingsPopoverNow : undefined,
  fallback: () => (
    <IconButton variant="ghost" color="gray" size="3" className="gt-touch" aria-label="View settings" title="View settings" disabled>
      <MixerHorizontalIcon />
    </IconButton>
  ),
});

/**
 * The browser's optimistic-updates preference (spec 1 §3 "Local preference", §4), behind a
 * small "View settings" button rather than in the toolbar: it is a set-once preference, not
 * something operators reach for while working. On: a toggle, save or delete shows at once
 * and is undone if the server refuses it. Off: the panel waits for the server and reloads.
 * It only means anything with JavaScript, so without it the button is not rendered at all.
 */
export function ViewSettings() {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return <ViewSettingsPopover />;
}
