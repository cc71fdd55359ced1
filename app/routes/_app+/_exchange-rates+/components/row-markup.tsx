import type { ButtonHTMLAttributes, ReactNode } from "react";

/**
 * Radix Themes' Text, Badge and Flex, reduced to the few props a collapsed rate row uses and
 * written as plain elements with the very classes Radix gives them (row-markup.test.ts
 * checks the output is identical). Radix works its props out on every render, which for a
 * list of 1,000 rows was a large share of the server render; these cost next to nothing.
 */
type Size = "1" | "2";

export function RowText({
  size,
  weight,
  color,
  className,
  title,
  children,
}: {
  size: Size;
  weight?: "medium";
  color?: "gray";
  className?: string;
  title?: string;
  children: ReactNode;
}) {
  const classes = ["rt-Text", `rt-r-size-${size}`, weight ? `rt-r-weight-${weight}` : "", className ?? ""].filter(Boolean).join(" ");
  return (
    <div data-accent-color={color} title={title} className={classes}>
      {children}
    </div>
  );
}

export function RowBadge({ color, variant, className, children }: { color: string; variant: "soft" | "outline"; className: string; children: ReactNode }) {
  return (
    <span data-accent-color={color} className={`rt-reset rt-Badge rt-r-size-1 rt-variant-${variant} ${className}`}>
      {children}
    </span>
  );
}

export function RowFlex({ className, children }: { className: string; children: ReactNode }) {
  return <div className={`rt-Flex rt-r-gap-2 ${className}`}>{children}</div>;
}

/**
 * Radix Themes' Button (size 1, soft or ghost) as a plain `<button>` with its classes; the
 * rows' Show/Hide, Enable/Disable and Delete. Extra attributes (form, name, value, aria-*,
 * onClick) pass through.
 */
export function RowButton({
  color,
  variant,
  className,
  children,
  ...rest
}: {
  color: string;
  variant: "soft" | "ghost";
  className: string;
  children: ReactNode;
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "color" | "className" | "children">) {
  return (
    <button data-accent-color={color} type="submit" {...rest} className={`rt-reset rt-BaseButton rt-r-size-1 rt-variant-${variant} rt-Button ${className}`}>
      {children}
    </button>
  );
}
