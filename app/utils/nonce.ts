import { createContext, useContext } from "react";

/**
 * The per-request Content-Security-Policy nonce (docs/decisions/0006). The Express server
 * makes one per request (`res.locals.cspNonce`), hands it to Remix through the load
 * context; entry.server.tsx provides it here and gives it to <RemixServer>, so every
 * script Remix renders (and any of ours) carries it and the policy needs no
 * `'unsafe-inline'` for scripts. In the browser the value is empty: the nonce attribute is
 * hidden from scripts anyway, and hydration ignores it.
 */
export const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
