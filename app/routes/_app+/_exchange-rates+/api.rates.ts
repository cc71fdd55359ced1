import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { answerRatesGet } from "./rates-api.server";

/**
 * GET /api/rates (spec 1 §7 "Rates"): the nested map input → output → rate data, flat pairs
 * as `rate`, tiered as `rates`, each with `status` and the pair's `_id`.
 *
 * The body is built once per change (app/models/rate.server.ts) and sent as is, gzipped
 * ahead of time for clients that accept it; an ETag lets clients revalidate for free.
 */
export const loader = apiRoute(async function loader({ request }: LoaderFunctionArgs) {
  const answer = await answerRatesGet(request.headers.get("if-none-match"), request.headers.get("accept-encoding"));
  const body = answer.body && new Uint8Array(answer.body.buffer as ArrayBuffer, answer.body.byteOffset, answer.body.byteLength);
  return new Response(body, { status: answer.status, headers: answer.headers });
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
