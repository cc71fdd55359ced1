import type { MetaFunction } from "@remix-run/node";
import { UpcomingSection } from "~/components/shell/upcoming-section";

export const meta: MetaFunction = () => [{ title: "GalaCord · Galaxy Toolbox" }];

/** GalaCord, the relay bot panel (spec 2 "GalaCord screen"); the spec lists no header buttons. */
export default function GalaCordRoute() {
  return <UpcomingSection title="GalaCord" description="The relay bot controls, its saved connections and their channels arrive in a later release." />;
}
