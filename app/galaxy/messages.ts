/**
 * Every text the Galaxy client shows or logs, in one place. The first group is quoted from
 * spec 2 (§4 "Galaxy client connection", §8 "Platform login codes", §8 "Collections"); the
 * planet texts are the official web client's (reference §4); the rest are ours.
 */
export const GALAXY_MESSAGES = {
  // Spec 2 §8 "Platform login codes".
  invalidCredentials: "Login failed: Invalid credentials",
  onlineOrBanned: "Login failed: User is online or banned",
  anotherDevice: "You login from another device",
  // Spec 2 §8 "Collections" / §4: changing planet while not connected.
  notConnected: "Not connected to Galaxy",
  // Spec 2 §4/§8: after the retries, a message naming server down, network issues, firewall.
  connectionFailed: "Could not connect to Galaxy. Possible causes: server down, network issues, or a firewall blocking the connection.",

  // Official web client texts (reference §4).
  comeLater: "Please try to come later.",
  planetFull: "This Planet is full!",
  noSuchPlanet: "Planet with such name doesn't exist!",
  planetLocked: "This Planet is locked!",

  // Ours.
  /** After "Login failed: User is online or banned" when our own logout of the account was < 10 s ago (decision 0042). */
  reloginWindow: "we logged it out less than 10 s ago; the platform lets an account back in 10 s after it left",
  connectionLost: "Connection to Galaxy lost",
  loginTimeout: "Login to Galaxy timed out",
  joinTimeout: "The planet did not answer in time",
  joinSuperseded: "Cancelled by a newer planet change",
  invalidPlanet: "Invalid planet name",
  noCredentials: "A recovery code, or an account id and password, is needed to log in",
  closedByUser: "Connection closed",
  malformedLine: "Malformed line from Galaxy",
  userAgentFailed: "Could not register the account's user-agent data",
  recoveryCodeRetry: "Stored credentials were refused (451); retrying with the recovery code",
} as const;

export type GalaxyMessageKey = keyof typeof GALAXY_MESSAGES;
