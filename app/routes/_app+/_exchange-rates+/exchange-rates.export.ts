import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportRatesJson } from "#api/rates";
import { listRates } from "~/models/rate.server";
import { requireOperator } from "~/http/auth.server";

/**
 * GET /exchange-rates/export: the Export button without JavaScript (spec 1 §7 "Export
 * copies the rates as pretty JSON"). The same pretty JSON the clipboard gets, as a file,
 * importable as is through Import.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const body = exportRatesJson(await listRates());
  const day = new Date().toISOString().slice(0, 10);
  return new Response(`${body}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="exchange-rates-${day}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
