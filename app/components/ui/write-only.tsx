import { useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import type { Role } from "~/utils/roles";

/**
 * What the logged-in operator may do, for screens (docs/decisions/0016). The shell's loader
 * (`routes/_app+/_layout`) tells the role and whether this operator may change anything; a
 * screen asks `useCanWrite()`, or wraps a control in `<WriteOnly>`, or marks it `data-write`
 * (the shell's CSS hides it for viewers, without JavaScript too). The server refuses the
 * write anyway (the gate, apiRoute and the route guard): hiding only spares the operator a 403.
 */
export const SHELL_ROUTE_ID = "routes/_app+/_layout";

export type ShellAccess = { role: Role; canWrite: boolean };

type ShellData = { operator?: { role?: Role; canWrite?: boolean } };

/** The operator's role and write right; outside the shell (tests, the auth pages) a writer is assumed. */
export function useAccess(): ShellAccess {
  const shell = useRouteLoaderData(SHELL_ROUTE_ID) as ShellData | undefined;
  return { role: shell?.operator?.role ?? "operator", canWrite: shell?.operator?.canWrite ?? true };
}

/** May the logged-in operator change anything (not a viewer, not a read-only token)? */
export function useCanWrite(): boolean {
  return useAccess().canWrite;
}

/** Renders its children only for operators who may change things (`fallback` for the others). */
export function WriteOnly({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return <>{useCanWrite() ? children : fallback}</>;
}
