/**
 * Recorded real Galaxy server lines (facts from public sources, issue 34 item 6). Ids,
 * passwords, seeds, nicks and planet names are replaced by placeholders of the same shape
 * (same length and character classes); everything else is as recorded.
 *
 * Sources:
 * - KICK2 log: github.com/galaxykicklock7/GalaxyKickPipelineWin, file `log.txt`, at commits
 *   815dc4d29794aaee0dd8d7d3869475fb7d664068 (EVENT, ADDON_TAG),
 *   294aa621b495a7bf8f7046aa86666ae28730e7be (SLEEP, PING, JOIN, FOUNDER, 860) and
 *   b65913eb29fa63dce26a73411da82f270c507fc7 (HAAAPSI, DOMAINS, REGISTER, 850).
 * - KICK1 sample: github.com/GalaxyKickLock77/galaxyServiceUpdate7 `galaxy_1.js:1361` at 7d29aaf
 *   (the PRIVMSG addressed to the bot), as quoted in /work/shared/reference/galaxy-runtime.md §5.1.
 *
 * Used by app/galaxy/real-lines.test.ts (the client's parser and a GalaxyConnection) and
 * sim/codec.test.ts (the simulator's own codec; the simulator's lines for the same commands).
 */

/** The bot's own account in the placeholders (the REGISTER line; the PRIVMSG's addressee). */
export const REAL_SELF = { id: "87654321", nick: "[A]BCD[E]" } as const;
/** The other user of the JOIN/FOUNDER/860/SLEEP lines (planet owner). */
export const REAL_OTHER = { id: "12345678", nick: "``NICKX``", planet: "SOME_PLANET" } as const;

export type RealLine = { line: string; source: string; what: string };

export const REAL_LINES: readonly RealLine[] = [
  { what: "seed", source: "KICK2 log.txt @ b65913e", line: "HAAAPSI aBcDeFgHiJ 20" },
  { what: "domains", source: "KICK2 log.txt @ b65913e", line: "DOMAINS galaxy.mobstudio.ru" },
  { what: "register", source: "KICK2 log.txt @ b65913e", line: `REGISTER ${REAL_SELF.id} 0123456789abcdef0123456789abcdef ${REAL_SELF.nick}` },
  { what: "events bar cleared", source: "KICK2 log.txt @ 815dc4d", line: "EVENT 1 0" },
  { what: "addon tag deleted", source: "KICK2 log.txt @ 815dc4d", line: ":del ADDON_TAG 200" },
  { what: "addon tag deleted", source: "KICK2 log.txt @ 815dc4d", line: ":del ADDON_TAG 232" },
  {
    what: "imprison rule notice",
    source: "KICK2 log.txt @ b65913e",
    line: "850 :You can imprison only in 3s after you appear on Planet. You can't imprison more often than once in 3s. If you violate one of these rules, you won't be able to imprison users during 15s.",
  },
  {
    what: "arrival",
    source: "KICK2 log.txt @ 294aa62",
    line: `JOIN ${REAL_OTHER.planet} ${REAL_OTHER.nick} ${REAL_OTHER.id} 0 -3 hb/111114_ 0 -76 33 0 hb/b235_ 0 0 33 0 @ 116 27 126 121 778 -1 -1 -1`,
  },
  { what: "planet owner", source: "KICK2 log.txt @ 294aa62", line: `FOUNDER ${REAL_OTHER.id} cr/21` },
  { what: "rating and aura", source: "KICK2 log.txt @ 294aa62", line: `860 ${REAL_OTHER.id} 301190 1;aura/0_7;0;0;33` },
  { what: "keepalive", source: "KICK2 log.txt @ 294aa62", line: "PING" },
  {
    what: "addressed chat",
    source: "KICK1 galaxy_1.js:1361 @ 7d29aaf (reference galaxy-runtime.md §5.1)",
    line: `PRIVMSG ${REAL_OTHER.id} 1 ${REAL_SELF.id} :${REAL_SELF.nick}, hi`,
  },
  { what: "went to sleep", source: "KICK2 log.txt @ 294aa62", line: `SLEEP ${REAL_OTHER.id}` },
];
