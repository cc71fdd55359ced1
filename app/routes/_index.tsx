import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { rememberedSectionPath } from "~/http/section.server";

/**
 * `/` opens the remembered section (spec 2, "Main app shell": "The chosen section is
 * remembered across visits; the default is exchange-rates"), decided on the server so
 * no wrong section ever renders first.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return redirect(rememberedSectionPath(request), { headers: { "Cache-Control": "no-store" } });
}
