/**
 * The /api contract of Trading Planets (spec 2 §3 "Trading planets", §5, §7, §8, §9).
 * Client-safe: no server imports.
 *
 *   GET    /api/planet-sequences              → { sequences: PlanetSequence[] } (list order)
 *   POST   /api/planet-sequences  SequenceInput → { sequence }
 *   PUT    /api/planet-sequences  { ids, updates: { isActive } } → { sequences } (bulk active)
 *   PUT    /api/planet-sequences/{id} Partial<SequenceInput> → { sequence }
 *   DELETE /api/planet-sequences/{id}         → { success, message }
 *   GET    /api/custom-planets                → { planets: CustomPlanet[] }
 *   POST   /api/custom-planets {name, type}   → { planet }
 *   PUT    /api/custom-planets/{id} {name?, type?} → { planet }
 *   DELETE /api/custom-planets/{id}           → { success, message }
 *   GET    /api/ads                           → { ads: Ad[] }
 *   POST   /api/ads {adsMessage, category?, isActive?} → { ad }
 *   PUT    /api/ads/{id} {adsMessage?, category?, isActive?} → { ad }
 *   DELETE /api/ads/{id}                      → { success, message }
 *
 * Errors: `{ error, message }` with the same text. The zod schemas are in api/trading-schemas.ts
 * (kept apart so the screen, which imports these texts, does not ship zod on first load).
 */
import { PLANET_NAME_MAX } from "./planet-name";
import type { SessionView } from "./sessions";

/** Spec 2 §8 "Trading planets": toasts. */
export const TRADING_MESSAGES = {
  loadCustomPlanetsFailed: "Failed to load custom planets",
  customPlanetCreated: "Custom planet created successfully",
  customPlanetUpdated: "Custom planet updated successfully",
  customPlanetDeleted: "Custom planet deleted successfully",
  deleteCustomPlanetFailed: "Failed to delete custom planet",
  loadAdsFailed: "Failed to load ads",
  refreshAdsFailed: "Failed to refresh ads",
  adCreated: "Ad created successfully",
  adUpdated: "Ad updated successfully",
  adDeleted: "Ad deleted successfully",
  deleteAdFailed: "Failed to delete ad",
  selectedAdsDeleted: "Selected ads deleted successfully",
  deleteSelectedAdsFailed: "Failed to delete selected ads",
  updateAdStatusFailed: "Failed to update ad status",
  loadDataFailed: "Failed to load data",
  sequenceCreated: "Sequence created successfully",
  sequenceUpdated: "Sequence updated successfully",
  sequenceDeleted: "Sequence deleted successfully",
  createSequenceFailed: "Failed to create sequence",
  updateSequenceFailed: "Failed to update sequence",
  deleteSequenceFailed: "Failed to delete sequence",
  updateSequenceStatusFailed: "Failed to update sequence status",
  copied: "Text copied to clipboard",
} as const;

/** Spec 2 §8: default messages of failed calls when the server gives no error field. */
export const TRADING_ERRORS = {
  fetchSequences: "Failed to fetch sequences",
  createSequence: "Failed to create sequence",
  updateSequence: "Failed to update sequence",
  deleteSequence: "Failed to delete sequence",
  updateSequences: "Failed to update sequences",
  fetchCustomPlanets: "Failed to fetch custom planets",
  createCustomPlanet: "Failed to create custom planet",
  updateCustomPlanet: "Failed to update custom planet",
  deleteCustomPlanet: "Failed to delete custom planet",
  fetchAds: "Failed to fetch ads",
  createAd: "Failed to create ad",
  deleteAd: "Failed to delete ad",
  // Spec 2 §5 validation texts:
  sequenceName: "Please enter a sequence name",
  sequencePlanets: "Please add at least one planet",
  sequenceSeconds: "Seconds must be a non-negative number",
  /** Ours: 2.5 is not negative, so the spec's text would not say what is wrong. */
  sequenceSecondsWhole: "Seconds must be a whole number",
  planetName: "Please enter a planet name",
  adMessage: "Please enter an ad message",
  // Ours (the spec leaves the server's answers open):
  sequenceNotFound: "Sequence not found",
  customPlanetNotFound: "Custom planet not found",
  customPlanetExists: "A custom planet with this name and type already exists",
  /** A sequence posts only where open level ≤ people ≤ closed level: closed below open never posts (issue 19). */
  sequenceLevels: "The closed level must be at least the open level",
  sequenceExists: "A sequence with this name already exists",
  adNotFound: "Ad not found",
  planetType: "Unknown planet type",
  idsRequired: "ids must list at least one sequence id",
} as const;

/** Spec 2 §9 "Sequence defaults", "Sequence list box height", "Drag touch long press", … */
export const TRADING_LIMITS = {
  seconds: 6,
  secondsMax: 999,
  closedPlanetsLevel: 51,
  openPlanetsLevel: 15,
  levelMax: 9999,
  listHeightPx: 400,
  dragTouchDelayMs: 120,
  dragMouseDistancePx: 5,
  deleteLongPressMs: 500,
  clipboardToastMs: 2000,
  nameMax: 100,
  /** The platform's rule (api/planet-name.ts). */
  planetNameMax: PLANET_NAME_MAX,
  /** Ours: an ad may hold several lines of any length; the trading run posts each line in pieces of at most 200 characters (issue 11). */
  adLineMax: 200,
  adMax: 2000,
  stepsMax: 50,
  /** Ours (issue 20 "Bounded pages"): sequences shown per page of the list (≤ 300 KB with the rest of the page). */
  sequencesPerPage: 20,
  /** Ours (issue 20): ads, and messages, shown per page of their section. */
  adsPerPage: 40,
  /** Ours (issue 20): trading characters shown per page of the trading run (started runs first). */
  tradersPerPage: 20,
} as const;

export const CUSTOM_PLANET_TYPES = ["blacklisted", "english"] as const;
export type CustomPlanetType = (typeof CUSTOM_PLANET_TYPES)[number];
export const AD_CATEGORIES = ["ads", "msg"] as const;
export type AdCategory = (typeof AD_CATEGORIES)[number];

export type SequenceStep = { id: string; planetType: string; shuffle: boolean };
export type PlanetSequence = {
  _id: string;
  name: string;
  sequence: SequenceStep[];
  seconds: number;
  closedPlanetsLevel: number;
  openPlanetsLevel: number;
  isActive: boolean;
};
export type CustomPlanet = { _id: string; name: string; type: CustomPlanetType };
export type Ad = { _id: string; adsMessage: string; category: AdCategory; isActive: boolean };

/** Spec 2 §3: a step's shuffle defaults to true unless its type starts with russian. */
export function defaultShuffle(planetType: string): boolean {
  return !planetType.toLowerCase().startsWith("russian");
}

// ---------------------------------------------------------------------------------------
// The trading run (issue 11 "The trading run"; galaxy-runtime.md §2.3 [D]; docs/trading-planets.md)
//
//   GET  /api/trader/status                → { traders: TraderStatus[] }  (every trading-type character)
//   POST /api/trader/start {account_id, takeover?} → 202 { success, message: "Trader started successfully", trader }
//                                          (409 { error, holder } when another purpose holds the account)
//   POST /api/trader/stop  {account_id}    → 200 { success, message: "Trader stopped successfully", trader | null }
//
// Errors `{ error, message }`: 400 (bad account_id, or the user is not of type trading), 404
// (unknown user), 503 (job engine offline: nothing changed), 500 "Failed to start trader" /
// "Failed to stop trader".

/**
 * What the screen shows beside the sequences (issue 11): idle, connecting (logging in, or
 * reconnecting: the reason and the next try are in the session), flying, on planet X,
 * posting, error (failed, or in prison while the run goes on).
 */
export type TraderState = "idle" | "connecting" | "flying" | "on_planet" | "posting" | "error";

/** Where the run is: enough for a worker taking the session over to go on from there. */
export type TraderPosition = {
  /** The sequence being run (by id: list order may change meanwhile) and its index when read. */
  sequenceId: string;
  sequenceIndex: number;
  stepId: string;
  stepIndex: number;
  /** The step's planets as expanded (and shuffled) when the step began. */
  planets: string[];
  planetIndex: number;
  /** Did the current visit post its ad already? (A resumed visit then moves on.) */
  posted: boolean;
  /** Sender ids answered during the current visit (msg replies: once per sender per visit). */
  repliedTo: string[];
  /** Rotation: the last ad posted and the last msg used. */
  lastAdId: string | null;
  lastMsgId: string | null;
};

export type TraderCounts = { visits: number; posts: number; replies: number; skipped: number; failures: number; rounds: number };

/**
 * Which sequence and step a run is on (issue 30 A7), from its saved position: 1-based numbers,
 * the sequence's name as it is now (null: deleted meanwhile; the run moves on to the next).
 */
export type TraderAt = {
  sequenceId: string;
  sequence: string | null;
  step: number;
  /** Steps of that sequence now (null when it is gone). */
  steps: number | null;
  planetType: string | null;
  planet: number;
  planets: number;
};

/** A trading-type character's run: its session (api/sessions.ts) with the run's state, counts and place. */
export type TraderStatus = SessionView & {
  accountId: string;
  nick: string;
  state: TraderState;
  counts: TraderCounts;
  /** Where a started run is (null when stopped, or before its first flight). */
  at: TraderAt | null;
};

export const TRADER_MESSAGES = {
  started: "Trader started successfully",
  stopped: "Trader stopped successfully",
  startFailed: "Failed to start trader",
  stopFailed: "Failed to stop trader",
  notTrading: "Only users of type trading can run the trading planets",
  fetchStatus: "Failed to fetch trader status",
} as const;

/** "Sequence “Morning” · step 2 of 3 (cannon) · planet 4 of 12": where the run is (issue 30 A7). */
export function traderAtLabel(at: TraderAt): string {
  const sequence = at.sequence === null ? "a deleted sequence" : `Sequence “${at.sequence}”`;
  const step = `step ${at.step}${at.steps === null ? "" : ` of ${at.steps}`}${at.planetType ? ` (${at.planetType})` : ""}`;
  const planet = at.planets > 0 ? ` · planet ${Math.min(at.planet, at.planets)} of ${at.planets}` : "";
  return `${sequence} · ${step}${planet}`;
}

/** The state line beside the sequences: "idle", "flying", "on planet X", "posting", "error". */
export function traderStateLabel(s: Pick<TraderStatus, "state" | "planet">): string {
  if (s.state === "on_planet") return s.planet ? `on planet ${s.planet}` : "on planet";
  if (s.state === "flying") return s.planet ? `flying to ${s.planet}` : "flying";
  if (s.state === "posting") return s.planet ? `posting on ${s.planet}` : "posting";
  return s.state;
}
