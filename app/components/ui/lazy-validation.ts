import { parse } from "@conform-to/react";
import { useEffect, useSyncExternalStore } from "react";
import { lazyModule } from "~/components/ui/lazy-module";

/**
 * Client-side form validation loaded after the page, not with it.
 *
 * Performance trick (CONVENTIONS rule 15), figures in bench/README.md "First-load weight":
 * zod with conform's zod adapter is ~31 kB gzip, a fifth of a section's first load. A form
 * keeps its one zod schema (rule 3): the action parses it on the server as always, and the
 * browser gets the same schema from a module imported here once the operator first acts on
 * the page (focus, press, key). Until it arrives (a few hundred milliseconds, seconds on a busy phone) a
 * form validates with {@link untilSchemaLoaded}: no errors in the browser, and a submission
 * goes to the server, whose answer carries the errors, exactly as without JavaScript. Use it
 * only for forms on a section's first screen; forms in code-split dialogs can import their
 * schema directly.
 *
 *   const useSettingsValidation = lazyValidation(() => import("~/components/settings/forms"));
 *   const validation = useSettingsValidation(); // undefined until loaded
 *   useForm({ onValidate: ({ formData }) => checkWith(validation, formData, (v) => v.parseWithZod(formData, { schema: v.Schema })) });
 */
export function lazyValidation<M>(load: () => Promise<M>): () => M | undefined {
  // A failed load (offline, a stale deployment): forms keep working through the server; tried again next mount.
  const lazy = lazyModule(load);
  return function useLazyValidation() {
    // Loaded when the operator starts doing something on the page (a focus, a press, a key),
    // not right after hydration: a page nobody touches never fetches zod (issue 32 item 4,
    // /settings was 191 kB in Chromium at network idle with it). By the time a field is
    // typed in and left, the schema is there; until then the server validates (above).
    useEffect(() => {
      if (lazy.get()) return;
      const events = ["focusin", "pointerdown", "keydown"] as const;
      const start = () => {
        for (const e of events) document.removeEventListener(e, start, true);
        lazy.start();
      };
      // A field focused before hydration (autofocus, a fast tab) is already an action.
      if (document.activeElement && document.activeElement !== document.body) return start();
      for (const e of events) document.addEventListener(e, start, true);
      return () => {
        for (const e of events) document.removeEventListener(e, start, true);
      };
    }, []);
    return useSyncExternalStore(lazy.subscribe, lazy.get, () => undefined);
  };
}

/**
 * A form's `onValidate`: `check(module)` once the schema module is loaded, until then
 * {@link untilSchemaLoaded}. Its answer is typed as the check's: conform reads only its status,
 * errors and reply (no form here passes useForm an `onSubmit` that would read its value).
 */
export function checkWith<M, S>(module: M | undefined, formData: FormData, check: (module: M) => S): S {
  return module ? check(module) : (untilSchemaLoaded(formData) as S);
}

/**
 * A form's `onValidate` while its schema is loading: every field valid. A form without any
 * `onValidate` is worse: conform then sends each field check (on input, on blur) and each list
 * change (add or remove a row) to the server, and the answer, arriving after more typing, puts
 * the values of its moment back (a tier's rate typed meanwhile came back blank; the CI flake of
 * the tier editor). With this one conform handles those in the browser; a submission still
 * goes to the server, which checks it with the schema.
 */
export function untilSchemaLoaded(formData: FormData) {
  return parse(formData, { resolve: (value) => ({ value }) });
}
