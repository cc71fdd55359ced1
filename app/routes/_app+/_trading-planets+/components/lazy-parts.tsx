import { lazyComponent } from "~/components/ui/lazy-component";
import { CustomPlanetsPanel as CustomPlanetsPanelNow } from "./custom-planets";
import { SequenceForm as SequenceFormNow } from "./sequence-form";

/**
 * The sequence form and the Custom Planets dialog load when first shown, not with the page
 * (first-load budget, CONVENTIONS rule 15): most visits open neither. A URL that opens one
 * (the no-JavaScript path) gets it in the server's HTML (lazyComponent's `server`).
 */
export const SequenceForm = lazyComponent(() => import("./sequence-form").then((m) => m.SequenceForm), {
  server: import.meta.env.SSR ? SequenceFormNow : undefined,
});
export const CustomPlanetsPanel = lazyComponent(() => import("./custom-planets").then((m) => m.CustomPlanetsPanel), {
  server: import.meta.env.SSR ? CustomPlanetsPanelNow : undefined,
});
