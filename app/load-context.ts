/** What the Express server hands every loader and action (server.ts `getLoadContext`). */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** This request's Content-Security-Policy nonce (app/utils/nonce.ts). */
    cspNonce?: string;
  }
}
export {};
