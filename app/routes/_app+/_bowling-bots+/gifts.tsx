import { ReloadIcon } from "~/components/ui/icons";
import { Flex, Text } from "@radix-ui/themes";
import type { MetaFunction } from "@remix-run/node";
import { UpcomingAction, UpcomingSection } from "~/components/shell/upcoming-section";

export const meta: MetaFunction = () => [{ title: "Bowling Bots · Galaxy Toolbox" }];

/** Bowling Bots (section id gifts; spec 1 "Bowling Bots section"). */
export default function BowlingBotsRoute() {
  return (
    <UpcomingSection
      title="Bowling Bots"
      actions={
        <Flex align="center" gap="2">
          {/* Spec 1: the last-fetched time reads "???" when unknown. */}
          <Text size="2" color="gray" aria-label="Last fetched: unknown">
            ???
          </Text>
          <UpcomingAction label="Refresh data" icon={<ReloadIcon />} iconOnly />
        </Flex>
      }
      description="The bowling accounts list with gifts, collection stats, online status and companions, and the 7-day Summary, arrive in a later release."
    />
  );
}
