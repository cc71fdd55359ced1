/**
 * The session registry handed to the session host (docs/sessions.md): each purpose's runner and
 * the store of session state. Adding a purpose is one entry here (and its queue in
 * app/queue/queues.server.ts, the purpose in api/sessions.ts HOSTED_PURPOSES, whose queue has its name: `sessionQueue` in app/queue/session-control.server.ts).
 */
import {
  claimCommands,
  claimSession,
  desiredOf,
  endSession,
  finishCommand,
  releaseSession,
  reportSession,
  wantedCount,
  wantedAgain,
  wantedKeys,
} from "~/models/session.server";
import { logEvent } from "~/models/log.server";
import type { SessionRegistry } from "../session-host.server";
import { runCollectionsSession } from "./collections";
import { runRelay } from "./relay";
import { runStalker } from "./stalker";
import { runTrader } from "./trader";

export const SESSIONS: SessionRegistry = {
  store: {
    claim: claimSession,
    report: reportSession,
    end: endSession,
    release: releaseSession,
    wanted: wantedKeys,
    wantedCount,
    desiredOf,
    wantedAgain,
    claimCommands,
    finishCommand,
    log: (entry) => logEvent({ ...entry, source: "bot" }),
  },
  purposes: {
    stalker: { runner: runStalker },
    trader: { runner: runTrader },
    collections: { runner: runCollectionsSession },
    // GalaCord: one session, job `relay-bot`, holding the Discord client and every relay connection.
    relay: { runner: runRelay, concurrency: 10 },
  },
};
