import { useEffect, useSyncExternalStore } from "react";
import { lazyModule } from "~/components/ui/lazy-module";

/**
 * Client-side form validation loaded after the page, not with it.
 *
 * Performance trick (CONVENTIONS rule 15), figures in bench/README.md "First-load weight":
 * zod with conform's zod adapter is ~31 kB gzip, a fifth of a section's first load. A form
 * keeps its one zod schema (rule 3): the action parses it on the server as always, and the
 * browser gets the same schema from a module imported here once the page has hydrated.
 * Until it arrives (a few hundred milliseconds after hydration) a form simply has no
 * `onValidate`, so conform lets the submission through and the server's answer carries the
 * errors, exactly as without JavaScript. Use it only for forms on a section's first screen;
 * forms in code-split dialogs can import their schema directly.
 *
 *   const useSettingsValidation = lazyValidation(() => import("~/components/settings/forms"));
 *   const validation = useSettingsValidation(); // undefined until loaded
 */
export function lazyValidation<M>(load: () => Promise<M>): () => M | undefined {
  // A failed load (offline, a stale deployment): forms keep working through the server; tried again next mount.
  const lazy = lazyModule(load);
  return function useLazyValidation() {
    useEffect(() => lazy.start(), []);
    return useSyncExternalStore(lazy.subscribe, lazy.get, () => undefined);
  };
}
