import { Flex, Switch, Text, Tooltip } from "@radix-ui/themes";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useOptimisticUpdates } from "~/utils/preferences";

/**
 * The visible switch for the browser's optimistic-updates preference (spec 1 §3 "Local
 * preference", §4). On: a toggle, save or delete shows at once and is undone if the server
 * refuses it. Off: the panel waits for the server and reloads. It only matters with
 * JavaScript, so it is inert until the page has hydrated.
 */
export function OptimisticSetting() {
  const hydrated = useHydrated();
  const [enabled, setEnabled] = useOptimisticUpdates();
  return (
    <Tooltip content="Show changes before the server confirms them (this browser only)">
      <Text as="label" size="2" className="gt-optimistic-setting">
        <Flex gap="2" align="center">
          <Switch size="1" checked={enabled} disabled={!hydrated} onCheckedChange={(checked) => setEnabled(checked === true)} />
          Optimistic updates
        </Flex>
      </Text>
    </Tooltip>
  );
}
