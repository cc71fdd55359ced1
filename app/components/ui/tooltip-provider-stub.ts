import type { ReactNode } from "react";

/**
 * What Radix Themes' `Theme` gets as `Tooltip` in the client build (see `themeWithoutTooltip`
 * in vite.config.ts): its `Tooltip.Provider` only. The real provider lives in the module
 * with all of Tooltip (Popper, floating-ui, ~17 kB gzip); `Hint` loads that after hydration
 * and brings its own provider.
 */
export function Provider({ children }: { children?: ReactNode }) {
  return children;
}
