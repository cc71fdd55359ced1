/**
 * Paths Express answers itself, before Remix (app/boot.server.ts mounts them). The
 * standing security suite (tests/e2e/security.spec.ts) requests each of these and every
 * Remix route without credentials; `public` ones are reachable without a login.
 */
export const SERVER_ROUTES = [
  { path: "/healthz", public: true },
  // Guarded by itself (METRICS_TOKEN, or loopback only without it): not the login gate.
  { path: "/metrics", public: true },
  { path: "/api/rates", public: false },
  { path: "/admin/queues", public: false },
  { path: "/admin/queues/api/queues", public: false },
] as const;

/** Reachable without a session (the auth gate's list; /setup only while no operator exists). */
export const PUBLIC_PAGES = [
  "/login",
  "/logout",
  "/setup",
  "/healthz",
  // Not the login gate's: its own guard (METRICS_TOKEN, or loopback only without it; docs/deploy.md).
  "/metrics",
  "/favicon.ico",
  "/robots.txt",
] as const;
