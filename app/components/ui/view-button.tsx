import { Button } from "@radix-ui/themes";
import { useLocation } from "@remix-run/react";
import type { ComponentProps, ReactNode } from "react";

/**
 * A button that changes a page's URL state (CONVENTIONS rule 6: filters, open rows,
 * dialogs): with JavaScript it calls `onActivate` and the page updates in place; without,
 * it is a GET form to the same page carrying the next state's params.
 *
 * `params` is the next state's search params, or a function of the current ones (so
 * params other widgets own are kept; see `buildSearchParams`).
 */
export function ViewButton({
  params,
  onActivate,
  children,
  formClassName,
  ...buttonProps
}: {
  params: URLSearchParams | ((current: URLSearchParams) => URLSearchParams);
  onActivate: () => void;
  children: ReactNode;
  formClassName?: string;
} & Omit<ComponentProps<typeof Button>, "type" | "onClick" | "children">) {
  const location = useLocation();
  const next = typeof params === "function" ? params(new URLSearchParams(location.search)) : params;
  return (
    <form method="get" action={location.pathname} className={formClassName ?? "gt-inline-form"}>
      {[...next.entries()].map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
      <Button
        type="submit"
        {...buttonProps}
        onClick={(event) => {
          event.preventDefault();
          onActivate();
        }}
      >
        {children}
      </Button>
    </form>
  );
}
