import { ReloadIcon } from "~/components/ui/icons";
import { Box, Flex, Text } from "@radix-ui/themes";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { UpcomingAction, UpcomingSection } from "~/components/shell/upcoming-section";
import { SummaryPanel } from "~/components/summary/summary-panel";
import { loadSummary } from "~/models/summary.server";
import { requireOperator } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Bowling Bots · Galaxy Toolbox" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  return { summary: await loadSummary(request) };
}

/** Bowling Bots (section id gifts; spec 1 "Bowling Bots section"). The Summary panel is live; the rest arrives with issue 10. */
export default function BowlingBotsRoute() {
  const { summary } = useLoaderData<typeof loader>();
  return (
    <>
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
        description="The bowling accounts list with gifts, collection stats, online status and companions arrive in a later release."
      />
      <Box mt="4" style={{ maxWidth: 640 }}>
        <SummaryPanel summary={summary} />
      </Box>
    </>
  );
}
