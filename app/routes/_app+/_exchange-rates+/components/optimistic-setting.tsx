import { MixerHorizontalIcon } from "~/components/ui/icons";
import { Flex, IconButton, Popover, Switch, Text } from "@radix-ui/themes";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useOptimisticUpdates } from "~/utils/preferences";

/**
 * The browser's optimistic-updates preference (spec 1 §3 "Local preference", §4), behind a
 * small "View settings" button rather than in the toolbar: it is a set-once preference, not
 * something operators reach for while working. On: a toggle, save or delete shows at once
 * and is undone if the server refuses it. Off: the panel waits for the server and reloads.
 * It only means anything with JavaScript, so without it the button is not rendered at all.
 */
export function ViewSettings() {
  const hydrated = useHydrated();
  const [enabled, setEnabled] = useOptimisticUpdates();
  if (!hydrated) return null;
  return (
    <Popover.Root>
      <Popover.Trigger>
        <IconButton variant="ghost" color="gray" size="3" className="gt-touch" aria-label="View settings" title="View settings">
          <MixerHorizontalIcon />
        </IconButton>
      </Popover.Trigger>
      <Popover.Content size="1" maxWidth="320px">
        <Text as="label" size="2" className="gt-optimistic-setting">
          <Flex gap="2" align="center">
            <Switch size="1" checked={enabled} onCheckedChange={(checked) => setEnabled(checked === true)} />
            Optimistic updates
          </Flex>
        </Text>
        <Text as="p" size="1" color="gray" mt="2">
          Show changes before the server confirms them (this browser only).
        </Text>
      </Popover.Content>
    </Popover.Root>
  );
}
