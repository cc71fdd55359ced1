import { MixerHorizontalIcon } from "~/components/ui/icons";
import { Flex, IconButton, Popover, Switch, Text } from "@radix-ui/themes";
import { useOptimisticUpdates } from "~/utils/preferences";

/** The "View settings" popover of optimistic-setting.tsx, loaded when its button is first pointed at, focused or pressed. */
export function ViewSettingsPopover({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const [enabled, setEnabled] = useOptimisticUpdates();
  return (
    <Popover.Root defaultOpen={defaultOpen}>
      <Popover.Trigger>
        <IconButton variant="ghost" color="gray" size="3" className="gt-touch" aria-label="View settings" title="View settings">
          <MixerHorizontalIcon />
        </IconButton>
      </Popover.Trigger>
      <Popover.Content size="1" maxWidth="320px" aria-label="View settings">
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
