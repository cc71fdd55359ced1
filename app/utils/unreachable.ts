import { isRouteErrorResponse, type ClientLoaderFunctionArgs } from "@remix-run/react";

/**
 * When the server cannot be reached at all (network down, server restarting), a
 * revalidation's fetch fails with a network error, not a Response. Without help, every
 * route whose loader is revalidated throws it to its error boundary: the root's "Something
 * went wrong" replaces the whole screen and unsaved form state is lost.
 *
 * Layout routes whose data is only context (the shell, theme, flash toast) keep their last
 * data instead: `export const clientLoader = keepDataWhenUnreachable("root")` and, in the
 * component, `rememberLoaderData("root", data)` (the data the page was hydrated with is not
 * handed to a clientLoader). A screen whose data matters says so itself (Exchange Rates
 * answers a failed load and runs its retry flow). Responses — redirects to /login, 4xx/5xx
 * the server chose — pass through untouched. Client-only (runs in the browser).
 */
const lastGood = new Map<string, unknown>();

export function rememberLoaderData(routeId: string, data: unknown) {
  if (data !== undefined) lastGood.set(routeId, data);
}

/** True for a failure to reach the server (not an answer from it). */
export function isUnreachable(error: unknown): boolean {
  return !(error instanceof Response) && !isRouteErrorResponse(error);
}

export function keepDataWhenUnreachable(routeId: string) {
  return async ({ serverLoader }: ClientLoaderFunctionArgs) => {
    try {
      const data = await serverLoader();
      lastGood.set(routeId, data);
      return data;
    } catch (error) {
      if (!isUnreachable(error) || !lastGood.has(routeId)) throw error;
      return lastGood.get(routeId);
    }
  };
}
