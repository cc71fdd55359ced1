/**
 * GalaCord's URL state and small helpers shared by the route and its components (spec 2 §2
 * "GalaCord screen"). Each dialog is a search param, so it opens without JavaScript too:
 * `new=1` the connection form (ID button), `channel=<accountId>` Change Channel,
 * `planet=<accountId>` Change Planet, `options=<accountId>` Relay Options,
 * `confirm=<accountId>` Delete Connection.
 */
export const SECTION_PATH = "/galacord";

export const DIALOG_PARAMS = {
  connectNew: "new",
  changeChannel: "channel",
  changePlanet: "planet",
  options: "options",
  confirmDelete: "confirm",
} as const;

/** A form field as a string ("" when absent or a file). */
export function formText(fd: FormData | null | undefined, name: string): string {
  const v = fd?.get(name);
  return typeof v === "string" ? v : "";
}

/** The Discord link of a channel, when its server is known. */
export function channelLink(a: { guildId: string | null; channelId: string }): string | undefined {
  return a.guildId ? `https://discord.com/channels/${a.guildId}/${a.channelId}` : undefined;
}
