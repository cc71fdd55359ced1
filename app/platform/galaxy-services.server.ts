import { GalaxyServices } from "~/galaxy/services.server";
import { getUserAgent } from "~/models/user-agent.server";
import { forget, recall, remember } from "~/utils/remember.server";

/**
 * The app's one Galaxy HTTP services client (CONVENTIONS rule 13): its limits are process-wide,
 * and it builds each account's X-Galaxy-* headers from the persisted user-agent registry. It is
 * made here, above the models, because the transport (app/galaxy) reads no table (decision 0022);
 * rebuilt when tests change the environment.
 */
const SERVICES = "galaxy-services";

export function getGalaxyServices(): GalaxyServices {
  return remember(SERVICES, () => new GalaxyServices({ userAgents: getUserAgent }));
}

export function resetGalaxyServices() {
  recall<GalaxyServices>(SERVICES)?.close();
  forget(SERVICES);
}
