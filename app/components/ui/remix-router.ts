/**
 * The page's router as it is now, not as of the last render: Remix puts it on
 * `window.__remixRouter`. Undefined on the server and in component tests (no Remix browser
 * entry), where whoever asks simply does not wait. Only what the kit reads of it is typed.
 */
export type RemixRouterView = {
  state: { navigation: { state: string }; revalidation: string; fetchers: Map<string, { state: string }> };
  subscribe(listener: () => void): () => void;
};

export function remixRouter(): RemixRouterView | undefined {
  return typeof window === "undefined" ? undefined : (window as { __remixRouter?: RemixRouterView }).__remixRouter;
}
