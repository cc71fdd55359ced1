import { useEffect, useState, useSyncExternalStore, type ComponentType, type CSSProperties, type ReactNode } from "react";
import { lazyModule } from "~/components/ui/lazy-module";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * A component whose code loads when it first renders in the browser, not with the page.
 *
 * Performance trick (CONVENTIONS rule 15), figures in bench/README.md "First-load weight"
 * (/exchange-rates: dialogs, the row's tier editor and the view-settings popover, with the
 * conform and Radix code only they use). Use it only for parts that most visits never show.
 *
 * - Server: pass the component itself as `server`, written as
 *   `import.meta.env.SSR ? Component : undefined` (a build constant, so the client bundle
 *   drops the static import). The HTML then has it in one pass, as before (the no-JavaScript
 *   paths: a dialog or an expanded row opened by the URL). Pass it also for parts only shown
 *   after hydration: with a dynamic import left in it, the server build is split into
 *   chunks, and server code that finds files next to its own module (the migrations) then
 *   looks in the wrong place.
 * - Browser: the code loads once the component first renders after hydration. Until then it
 *   renders `fallback`. If the server rendered it and the code is not there yet at
 *   hydration, the server's markup is kept as it is (an element whose children React leaves
 *   alone) and replaced when the code arrives. React.lazy + Suspense would do the same until
 *   the first re-render (`useHydrated` flips right after hydration), which would throw the
 *   server's markup away with a "received an update before it finished hydrating" error.
 *
 * The part sits in a `display: contents` div, so layout and CSS see its own markup only.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  options: { server?: ComponentType<P>; fallback?: (props: P) => ReactNode } = {},
): ComponentType<P> {
  // A failed load keeps the fallback (or the server's markup) and is tried again on the next mount.
  const lazy = lazyModule(load, options.server);

  function LazyComponent(props: P) {
    const Component = useSyncExternalStore(lazy.subscribe, lazy.get, lazy.get);
    const hydrated = useHydrated();
    // Mounted during hydration: the server rendered this part (see above).
    const [fromServer] = useState(!hydrated);
    useEffect(() => {
      if (!lazy.get()) lazy.start();
    }, []);
    if (Component) {
      return (
        <div style={CONTENTS}>
          <Component {...props} />
        </div>
      );
    }
    if (fromServer) return <div style={CONTENTS} dangerouslySetInnerHTML={KEEP} suppressHydrationWarning />;
    return <div style={CONTENTS}>{options.fallback?.(props) ?? null}</div>;
  }
  return LazyComponent;
}

const CONTENTS: CSSProperties = { display: "contents" };
const KEEP = { __html: "" };
