import { Button, Card, Dialog, Flex, Heading, Text } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { createContext, useContext, useRef, type ReactNode } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * A dialog whose open state lives in the URL (`?dialog=…`). After hydration it is a Radix
 * dialog (focus trapped, Escape closes, focus returns to the button that opened it).
 * Before hydration — and so for browsers without JavaScript — the server renders the same
 * content inline at the top of the panel, and Cancel is a link back to the page without
 * the dialog: Radix renders dialogs in a portal, which the server does not.
 */
type Frame = { hydrated: boolean; onClose: () => void; closeHref: string };
// Marked pure so that a bundle importing this module without using it (the client build of
// the Exchange Rates lazy-dialogs.tsx, see lazy-component.tsx) can drop it and Radix Dialog.
const FrameContext = /* @__PURE__ */ createContext<Frame | null>(null);

export function DialogFrame({
  open,
  onClose,
  closeHref,
  title,
  description,
  maxWidth = "600px",
  focusFirstField = true,
  children,
}: {
  open: boolean;
  onClose: () => void;
  closeHref: string;
  title: string;
  description?: ReactNode;
  maxWidth?: string;
  /** false: open with the dialog itself focused (no phone keyboard popping over a list of fields). */
  focusFirstField?: boolean;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const opener = useRef<HTMLElement | null>(null);
  // The control that opened the dialog, read before Radix moves focus into it (an effect here
  // runs after the content's own, when focus is already inside; issue 30 B3).
  const remember = () => {
    const el = document.activeElement;
    opener.current = el instanceof HTMLElement && el !== document.body ? el : null;
  };

  const frame: Frame = { hydrated, onClose, closeHref };
  if (!hydrated) {
    if (!open) return null;
    return (
      <FrameContext.Provider value={frame}>
        <Card role="dialog" aria-labelledby="gt-inline-dialog-title" className="gt-inline-dialog" style={{ maxWidth }} mb="4">
          <Heading as="h2" size="4" id="gt-inline-dialog-title" mb="1">
            {title}
          </Heading>
          {description ? (
            <Text as="p" size="2" color="gray" mb="3">
              {description}
            </Text>
          ) : null}
          {children}
        </Card>
      </FrameContext.Provider>
    );
  }
  return (
    <FrameContext.Provider value={frame}>
      <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
        <Dialog.Content
          maxWidth={maxWidth}
          onOpenAutoFocus={(event) => {
            remember();
            if (focusFirstField) return;
            event.preventDefault();
            (event.currentTarget as HTMLElement | null)?.focus();
          }}
          // A field that uses Escape itself (an inline rename puts its name back) keeps it.
          onEscapeKeyDown={(event) => {
            if (event.target instanceof Element && event.target.closest("[data-own-escape]")) event.preventDefault();
          }}
          onCloseAutoFocus={(event) => {
            const el = opener.current;
            if (el && el.isConnected) {
              event.preventDefault();
              el.focus();
            }
          }}
        >
          <Dialog.Title>{title}</Dialog.Title>
          {description ? (
            <Dialog.Description size="2" color="gray" mb="3">
              {description}
            </Dialog.Description>
          ) : (
            <Dialog.Description className="gt-visually-hidden">{title}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Root>
    </FrameContext.Provider>
  );
}

/** Cancel: closes the dialog in place, or (no JavaScript) links back without it. */
export function DialogCancel({ children = "Cancel", disabled }: { children?: ReactNode; disabled?: boolean }) {
  const frame = useContext(FrameContext);
  if (!frame) throw new Error("DialogCancel must be inside a DialogFrame");
  if (!frame.hydrated) {
    return (
      <Button asChild variant="soft" color="gray">
        <Link to={frame.closeHref} preventScrollReset>
          {children}
        </Link>
      </Button>
    );
  }
  return (
    <Button type="button" variant="soft" color="gray" onClick={frame.onClose} disabled={disabled}>
      {children}
    </Button>
  );
}

export function DialogButtons({ children }: { children: ReactNode }) {
  return (
    <Flex gap="3" mt="4" justify="end" wrap="wrap">
      {children}
    </Flex>
  );
}
