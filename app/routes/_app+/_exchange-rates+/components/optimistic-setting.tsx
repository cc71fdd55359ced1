import { IconButton } from "@radix-ui/themes";
import { useEffect, useRef, useState, useSyncExternalStore, type ComponentType } from "react";
import { MixerHorizontalIcon } from "~/components/ui/icons";
import { lazyModule, type LazyModule } from "~/components/ui/lazy-module";
import { useHydrated } from "~/components/ui/use-hydrated";
import { ViewSettingsPopover as ViewSettingsPopoverNow } from "./view-settings-popover";

/**
 * Performance trick (CONVENTIONS rule 15): the popover (Radix Popover with its focus and
 * scroll-lock code, the Switch) loads when the operator reaches for its button — pointer
 * over it, focus, a press — not with the page nor right after it (bench/README.md
 * "First-load weight"; issue 32 item 4: loaded after hydration it still put /exchange-rates
 * at 172–176 kB in Chromium at network idle). A press before the code is there opens the
 * popover as soon as it arrives; a focused button keeps the focus across the swap.
 */
const popover = lazyModule(() =>
  // The server build has no dynamic import at all (server code finds files relative to its own module, e.g. the migrations).
  import.meta.env.SSR ? Promise.resolve(ViewSettingsPopoverNow) : import("./view-settings-popover").then((m) => m.ViewSettingsPopover),
);

/**
 * The browser's optimistic-updates preference (spec 1 §3 "Local preference", §4), behind a
 * small "View settings" button rather than in the toolbar: it is a set-once preference, not
 * something operators reach for while working. On: a toggle, save or delete shows at once
 * and is undone if the server refuses it. Off: the panel waits for the server and reloads.
 * It only means anything with JavaScript, so without it the button is not rendered at all.
 */
export const ViewSettings = viewSettingsWith(popover);

/** `ViewSettings` over a given store of the popover's code (a test controls when it arrives). */
export function viewSettingsWith(popover: LazyModule<ComponentType<{ defaultOpen?: boolean }>>) {
  return function ViewSettings() {
    const hydrated = useHydrated();
    const Popover = useSyncExternalStore(popover.subscribe, popover.get, () => undefined);
    const [openWhenLoaded, setOpenWhenLoaded] = useState(false);
    // A press under way keeps the plain button: swapping it between the press and its click (the
    // code arriving after the pointer came over it) lost the click, and the popover never opened.
    const [pressing, setPressing] = useState(false);
    const hadFocus = useRef(false);
    const box = useRef<HTMLSpanElement>(null);
    useEffect(() => {
      if (Popover && hadFocus.current && !openWhenLoaded) box.current?.querySelector("button")?.focus();
    }, [Popover, openWhenLoaded]);
    if (!hydrated) return null;
    if (Popover && !pressing) {
      return (
        <span ref={box} style={CONTENTS}>
          <Popover defaultOpen={openWhenLoaded} />
        </span>
      );
    }
    const want = () => popover.start();
    return (
      <span ref={box} style={CONTENTS}>
        <IconButton
          variant="ghost"
          color="gray"
          size="3"
          className="gt-touch"
          aria-label="View settings"
          title="View settings"
          onPointerOver={want}
          onFocus={() => {
            hadFocus.current = true;
            want();
          }}
          onBlur={() => (hadFocus.current = false)}
          onPointerDown={() => setPressing(true)}
          onPointerLeave={() => setPressing(false)}
          onPointerCancel={() => setPressing(false)}
          onClick={() => {
            setPressing(false);
            setOpenWhenLoaded(true);
            want();
          }}
        >
          <MixerHorizontalIcon />
        </IconButton>
      </span>
    );
  };
}

const CONTENTS = { display: "contents" } as const;
