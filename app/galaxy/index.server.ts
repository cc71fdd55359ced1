/**
 * The Galaxy platform client (server-only): the socket connection (the app's wiring of it is
 * app/platform/connection-deps.server.ts), the planet roster, the line protocol and texts, the HTTP services client and its
 * answer parsing, and the user-agent record. See docs/galaxy-protocol.md.
 */
export * from "./protocol";
export * from "./messages";
export * from "./connection.server";
export * from "./roster";
export * from "./services.server";
export * from "./services-parse";
export * from "./user-agent";
