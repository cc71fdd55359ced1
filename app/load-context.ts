/** What the Express server hands every loader and action (server.ts `getLoadContext`). */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** This request's Content-Security-Policy nonce (app/utils/nonce.ts). */
    cspNonce?: string;
    /** The live bus's sequence as a page's document request began (app/boot.server.ts `readLiveSeqForPages`); null otherwise. */
    liveSeq?: number | null;
  }
}
export {};
