/**
 * The /api contract of the Collections section (spec 2 §7 "Collections", §8, §9), shared by
 * the resource routes, the automation worker and the screen. Client-safe: no server imports.
 *
 *   POST /api/clay/mastic/run            {userID, password?, collectionId, numberOfRequests}
 *        → { success: true, collectionId, requested, succeeded, message }
 *   POST /api/clay/gifts/inventory       {userID, password?, collectionId?} → { giftIds: string[] }
 *   POST /api/clay/gifts/send            {userID, password?, receiverUserId, giftIdsToSend}
 *        → { success: true, sent, receiverUserId, message }
 *   POST /api/clay/collection/{id}/status {userID, password?}   (header X-Skip-Cache: true)
 *        → { status: { firstRow: CollectionItemDto[8], secondRow: CollectionItemDto[8] } }
 *
 * `password` may be left out for an account the server stores (a saved Collections profile of
 * the operator, or a character): passwords never reach the browser. Errors are
 * `{ error, message }` with the same text (spec 2 §7 reads `message`): 400 bad input, 404
 * unknown set, 502 the platform call failed (spec 2 §8 texts).
 */
import type { CollectionItemDto } from "./galaxy";

/** Spec 2 §3 "Collections": the two sets of the picker; 178 is the default. */
export const COLLECTION_SETS = [
  { id: 161, name: "Dragon Collection Set 1" },
  { id: 178, name: "Dragon Collection Set 2" },
] as const;
export type CollectionSetId = (typeof COLLECTION_SETS)[number]["id"];
export const DEFAULT_COLLECTION_SET: CollectionSetId = 178;
export function isCollectionSetId(value: unknown): value is CollectionSetId {
  return COLLECTION_SETS.some((s) => s.id === Number(value));
}
export function collectionSetName(id: number): string {
  return COLLECTION_SETS.find((s) => s.id === id)?.name ?? `Collection ${id}`;
}

/** Spec 2 §9 constants. */
export const COLLECTIONS_LIMITS = {
  savedProfiles: 5,
  masticRequests: 16,
  gridItems: 16,
  activityShown: 5,
  stepWaitMs: 2_000,
  firstCycleMs: 500,
  intervalMin: 5,
  intervalMax: 60,
  intervalStep: 5,
  intervalDefault: 30,
  /** galaxy-runtime.md §3.3: a send carries at most 50 items; chunks go 2 s apart. */
  sendChunk: 50,
  /** Longest list of gift ids one send accepts (ours). */
  maxGiftIds: 5_000,
} as const;

/** Spec 2 §9 "Repeat options": 0 stands for infinity. */
export const REPEAT_OPTIONS = [0, 1, 2, 3, 5, 10, 20, 50, 100] as const;
export const INTERVAL_OPTIONS = Array.from(
  { length: (COLLECTIONS_LIMITS.intervalMax - COLLECTIONS_LIMITS.intervalMin) / COLLECTIONS_LIMITS.intervalStep + 1 },
  (_, i) => COLLECTIONS_LIMITS.intervalMin + i * COLLECTIONS_LIMITS.intervalStep,
);

/** [D] The recipient picker's default (spec 2 §3: "default an 8-digit id"). */
export const DEFAULT_RECIPIENT_ID = "10000001";

/** Spec 2 §8 "Collections" (toasts and errors), and our texts for bad input. */
export const COLLECTIONS_TEXTS = {
  masticOk: "Mastic used successfully",
  masticFailed: "Failed to run mastic requests",
  sent: (n: number, id: string) => `Sent ${n} gifts to user ${id}`,
  /** Added to `sent` when the platform's answer did not say and a fresh inventory read confirmed the send (issue 34). */
  confirmedByReread: "confirmed by re-reading the inventory",
  sendFailed: "Failed to send gifts",
  inventoryFailed: "Failed to fetch gift inventory",
  statusFailed: "Failed to fetch collection status",
  notConnected: "Not connected to Galaxy",
  cycleCompleted: "cycle completed",
  /** A cycle taken back from a worker that died or was cut off (ours; decision 0028). */
  workerLost: "worker lost or cut off; continuing on another worker",
  // Bad input (ours).
  badUserId: "userID must be a numeric account id",
  badPassword: "password is required",
  noSet: "Choose a collection set",
  badSet: "collectionId must be 161 (Dragon Collection Set 1) or 178 (Dragon Collection Set 2)",
  badRequests: `numberOfRequests must be a whole number from 1 to ${16}`,
  noRecipient: "Choose a recipient",
  badRecipient: "receiverUserId must be a numeric account id",
  /** The page's words for the same refusal (issue 19 item 10: no field name in a toast). */
  recipientNotId: "The recipient must be a numeric account id",
  selfRecipient: "The recipient must be another account",
  noGifts: "Choose at least one gift to send",
  badGiftIds: "giftIdsToSend must be a list of numeric gift ids",
  notHeld: "Some of the chosen gifts are not in the inventory",
  noCode: "Enter a recovery code",
  noProfile: "Saved account not found",
  notLoggedIn: "Log in to Galaxy first",
  badBody: "Send a JSON object with userID (and password unless the account is stored)",
} as const;

export type MasticRunResponse = { success: true; collectionId: number; requested: number; succeeded: number; message: string };
export type InventoryResponse = { giftIds: string[] };
export type SendGiftsResponse = { success: true; sent: number; receiverUserId: string; message: string };
export type CollectionStatusResponse = { status: { firstRow: CollectionItemDto[]; secondRow: CollectionItemDto[] } };

/**
 * Spec 2 §3 "Activity entry statuses", and "stopped" (issue 30 A7: an Auto cycle the operator
 * stopped neither succeeded nor failed; it no longer carries a green "success").
 */
export const ACTIVITY_STATUSES = ["in-progress", "success", "error", "stopped"] as const;
export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

/** Spec 2 §4 "Galaxy client connection". */
export type ConnectionState = "disconnected" | "connecting" | "connected" | "error";

/**
 * The spec's state of the connection, from its session (issue 29: up only while a live worker
 * holds it). Client-safe: the model answers it, and the page applies it to a live event (issue 30 A3).
 */
export function collectionsConnectionState(s: { desired: string; actual: string; phase?: string }): ConnectionState {
  if (s.actual === "failed") return "error";
  if (s.desired !== "run" || s.actual === "stopped") return "disconnected";
  return (s.phase ?? s.actual) === "active" ? "connected" : "connecting";
}
