import type { SessionView } from "#api/sessions";
import { collectionsPanelCookie, type PanelMode } from "~/utils/collections-panel.server";
import { getConnection } from "./collections-connection.server";
import { getProfile, getState, listActivity } from "./collections.server";

/**
 * What the shell's Collections floating panel shows (spec 2 "Main app shell": it floats over
 * other sections while connected; showCollections and minimized are remembered). Null when
 * the panel is off, nobody is logged in, or the connection was disconnected. A connection that
 * failed keeps the panel, with the reason (issue 18: the truth where the operator is looking).
 */
export type FloatingPanelData = {
  mode: Exclude<PanelMode, "hide">;
  /** Names the panel's live events (`collections:<operatorId>`). */
  operatorId: string;
  nick: string;
  accountId: string;
  state: string;
  /** The connection's session: the reason when it failed or reconnects. */
  session: SessionView;
  auto: boolean;
  runCount: number;
  repeat: number;
  intervalSeconds: number;
  giftCount: number;
  lastActivity: { status: string; message: string } | null;
};

export async function floatingPanelData(request: Request, operatorId: string): Promise<FloatingPanelData | null> {
  const mode = collectionsPanelCookie.read(request) ?? "hide";
  if (mode === "hide") return null;
  const state = await getState(operatorId);
  if (!state.profileId) return null;
  const profile = await getProfile(operatorId, state.profileId);
  if (!profile) return null;
  const connection = await getConnection(profile.accountId);
  if (connection.state === "disconnected") return null;
  const [last] = await listActivity(operatorId, 1);
  return {
    mode,
    operatorId,
    nick: profile.nick,
    accountId: profile.accountId,
    state: connection.state,
    session: connection,
    auto: state.auto,
    runCount: state.runCount,
    repeat: state.repeat,
    intervalSeconds: state.intervalSeconds,
    giftCount: state.giftIds?.length ?? 0,
    lastActivity: last ? { status: last.status, message: last.message } : null,
  };
}
