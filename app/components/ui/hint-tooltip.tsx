// eslint-disable-next-line no-restricted-imports -- the one place Tooltip is imported, loaded lazily by Hint
import { Tooltip } from "@radix-ui/themes";
import type { ReactElement, ReactNode } from "react";
// eslint-disable-next-line no-restricted-imports -- its provider, in the same lazy chunk
import { Tooltip as TooltipPrimitive } from "radix-ui";

/**
 * Radix Themes' Tooltip, the code `Hint` loads after hydration (its own chunk: Popper,
 * floating-ui). It brings its own provider, with Theme's delay: in the client build the
 * root `Theme` has a stub instead (vite.config.ts, `themeWithoutTooltip`).
 */
export function HintTooltip({ content, children, open }: { content: ReactNode; children: ReactElement; open: boolean }) {
  return (
    <TooltipPrimitive.Provider delayDuration={200}>
      <Tooltip content={content} defaultOpen={open}>
        {children}
      </Tooltip>
    </TooltipPrimitive.Provider>
  );
}
