import { ClockIcon } from "~/components/ui/icons";
import { Button, IconButton, Tooltip } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { EmptyState } from "~/components/ui/empty-state";
import { SectionHeader } from "~/components/ui/section-header";

export const UPCOMING_HINT = "Arrives in a later release";

/**
 * A header button of a section that a later release fills: present where the spec puts
 * it, visibly disabled, and saying so on hover and keyboard focus (disabled buttons get
 * no pointer events, so the focusable wrapper carries the tooltip).
 */
export function UpcomingAction({ label, icon, iconOnly = false }: { label: string; icon?: ReactNode; iconOnly?: boolean }) {
  return (
    <Tooltip content={`${label}: ${UPCOMING_HINT.toLowerCase()}`}>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a disabled button cannot take focus, so this wrapper does, to show the tooltip. */}
      <span tabIndex={0} className="gt-upcoming-action" title={`${label}: ${UPCOMING_HINT.toLowerCase()}`}>
        {iconOnly ? (
          <IconButton type="button" variant="ghost" color="gray" disabled aria-label={label} size="2">
            {icon}
          </IconButton>
        ) : (
          <Button type="button" variant="soft" disabled size="2">
            {icon}
            {label}
          </Button>
        )}
      </span>
    </Tooltip>
  );
}

/** A section whose content a later release brings: its title, its header buttons, an honest empty state. */
export function UpcomingSection({ title, actions, description }: { title: string; actions?: ReactNode; description: string }) {
  return (
    <>
      <SectionHeader title={title} actions={actions} />
      <EmptyState icon={<ClockIcon width="28" height="28" />} title={`${title} arrives in a later release`} description={description} />
    </>
  );
}
