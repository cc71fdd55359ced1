// One file per entity; every table is re-exported here for drizzle-kit and the db client.
export * from "./auth";
export * from "./logs";
export * from "./settings";
export * from "./galaxy";
export * from "./rates";
export * from "./jobs";
export * from "./accounts";
export * from "./summary";
export * from "./trading";
export * from "./bowling";
export * from "./collections";
export * from "./galacord";
export * from "./sessions";
export * from "./audit";
