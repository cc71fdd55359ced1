import { GlobeIcon, PlusIcon } from "~/components/ui/icons";
import type { MetaFunction } from "@remix-run/node";
import { UpcomingAction, UpcomingSection } from "~/components/shell/upcoming-section";

export const meta: MetaFunction = () => [{ title: "Trading Planets · Galaxy Toolbox" }];

/** Trading Planets (spec 2 "Trading Planets screen"); header: New Sequence and Custom Planets. */
export default function TradingPlanetsRoute() {
  return (
    <UpcomingSection
      title="Trading Planets"
      actions={
        <>
          <UpcomingAction label="New Sequence" icon={<PlusIcon />} />
          <UpcomingAction label="Custom Planets" icon={<GlobeIcon />} />
        </>
      }
      description="Planet sequences, custom planets and the ads and messages manager arrive in a later release."
    />
  );
}
