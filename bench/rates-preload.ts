/**
 * Preloaded into the benchmark's server process (`node --import tsx --import
 * ./bench/rates-preload.ts server.ts`): lets the app accept the benchmark's synthetic gift
 * names, which it keeps on globalThis, so the Remix build's copy of the model sees them.
 * The server itself is started unchanged. See bench/README.md.
 */
import { allowExtraGiftNames } from "~/models/rate.server";
import { benchGiftNames } from "./rates-data";

allowExtraGiftNames(benchGiftNames());
