import { Theme } from "@radix-ui/themes";
import { createRemixStub } from "@remix-run/testing";
import { act, render } from "@testing-library/react";
import { onTestFinished, vi } from "vitest";
import { lazyModule, type LazyModule } from "~/components/ui/lazy-module";

type StubRoutes = Parameters<typeof createRemixStub>[0];

/**
 * Renders routes in a Remix stub (real <Form>, fetchers, loaders and actions) inside the
 * Radix <Theme>, as component tests need them (docs/testing.md). Client-side only: import
 * this file directly, not through the kit's index (that one pulls in server modules).
 *
 * @remix-run/testing 2.17.5 cannot pass React Router's `v7_startTransition` flag to its
 * RouterProvider (the app's RemixBrowser sets it), so React Router warns about it once per
 * file; that one warning is dropped here, every other console output stays.
 */
export function renderRemixStub(routes: StubRoutes, options: { initialEntries?: string[] } = {}) {
  const warn = console.warn;
  const spy = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].includes("v7_startTransition")) return;
    warn(...args);
  });
  onTestFinished(() => spy.mockRestore());
  const Stub = createRemixStub(routes);
  return render(
    <Theme>
      <Stub initialEntries={options.initialEntries ?? [routes[0]?.path ?? "/"]} />
    </Theme>,
  );
}

/**
 * A store of lazily loaded code (`lazyModule`) whose code arrives when the test says:
 * `asked()` once something started loading it, `arrive()` (inside an async act: the store
 * tells its subscribers in a promise reaction after the resolve) hands over `value`.
 */
export function heldModule<T>(value: T): { store: LazyModule<T>; arrive: () => Promise<void>; asked: () => boolean } {
  let arrive!: () => void;
  let asked = false;
  const store = lazyModule<T>(() => {
    asked = true;
    return new Promise((resolve) => (arrive = () => resolve(value)));
  });
  return { store, arrive: () => act(async () => arrive()), asked: () => asked };
}
