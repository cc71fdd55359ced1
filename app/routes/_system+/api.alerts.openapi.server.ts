import { AlertsResponseSchema, PutAlertsBodySchema } from "#api/alerts";
import { documented } from "#api/openapi";

/** The OpenAPI registration of api.alerts.ts (issues 31, 33; docs/api.md). */
export const openapi = documented("/api/alerts", "System", {
  GET: {
    summary: "Where alerts go (admins)",
    description: 'A webhook\'s secret is never answered: `secret: "set"` when one is stored.',
    responses: { 200: AlertsResponseSchema },
  },
  PUT: {
    summary: "Replace the alert destinations (admins)",
    description:
      "A generic HTTPS webhook (JSON body, signed with `X-Galaxy-Toolbox-Signature: sha256=<hmac>` when a secret is set), a Discord webhook URL, " +
      'or a Discord channel through the GalaCord bot. A webhook without `secret` for a URL already stored keeps its secret; `""` removes it.',
    body: PutAlertsBodySchema,
    example: { destinations: [{ kind: "webhook", url: "https://alerts.example.com/galaxy", secret: "s3cret-value" }] },
    responses: { 200: AlertsResponseSchema },
  },
});
