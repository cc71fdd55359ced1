import { AlertDialog, Button, Flex } from "@radix-ui/themes";
import { Form } from "@remix-run/react";
import { useRef, type ReactNode } from "react";

/**
 * "Destructive actions ask first" (CONVENTIONS rule 7): an alert dialog that names what
 * goes and says it cannot be undone. Confirming either calls `onConfirm` or, with
 * `form`, posts that form (a normal navigation: the action redirects with a flash toast).
 *
 * Radix renders dialogs in a portal after hydration, so pages that must also work
 * without JavaScript link the trigger to a `?confirm=…` URL and render <ConfirmPanel>
 * there: the same question, inline, from the server.
 */
export type ConfirmForm = { action?: string; fields: Record<string, string> };

export type ConfirmCommon = {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  color?: "red" | "orange" | "blue";
  pending?: boolean;
  form?: ConfirmForm;
  onConfirm?: () => void;
};

export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  confirmLabel,
  cancelLabel = "Cancel",
  color = "red",
  pending = false,
  form,
  onConfirm,
}: ConfirmCommon & { open?: boolean; onOpenChange?: (open: boolean) => void; trigger?: ReactNode }) {
  // Issue 30 B3: a dialog opened by its page (no Radix trigger: a `?confirm=` link whose click
  // opens it) gave focus to the page body on close; it goes back to the control that opened
  // it, or, when that control is gone (its row deleted), stays where the page puts it.
  const openedFrom = useRef<HTMLElement | null>(null);
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialog.Trigger>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Content
        maxWidth="450px"
        onOpenAutoFocus={() => {
          openedFrom.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
        }}
        onCloseAutoFocus={(event) => {
          if (trigger) return;
          const back = openedFrom.current;
          openedFrom.current = null;
          if (back?.isConnected) {
            event.preventDefault();
            back.focus();
          }
        }}
      >
        <AlertDialog.Title>{title}</AlertDialog.Title>
        <AlertDialog.Description size="2">{description}</AlertDialog.Description>
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray" type="button">
              {cancelLabel}
            </Button>
          </AlertDialog.Cancel>
          {form ? (
            <Form method="post" action={form.action} onSubmit={() => onOpenChange?.(false)}>
              {Object.entries(form.fields).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <Button type="submit" color={color} loading={pending}>
                {confirmLabel}
              </Button>
            </Form>
          ) : (
            <AlertDialog.Action>
              <Button type="button" color={color} loading={pending} onClick={onConfirm}>
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          )}
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}

// The inline panel lives in its own module, so a page can render it without loading the
// Radix AlertDialog (see confirm-panel.tsx).
export { ConfirmPanel } from "./confirm-panel";
