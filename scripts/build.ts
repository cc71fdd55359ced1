/**
 * `npm start`'s build step on its own (scripts/build-app.ts): what `npm start` prints while it
 * builds, and nothing else. scripts/test.sh builds the journeys' production build with it, so
 * scripts/start.test.ts can read that output as `npm start`'s and start on that build.
 */
import { buildApp } from "./build-app";

buildApp();
