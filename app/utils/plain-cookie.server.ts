import { getEnv } from "~/utils/env.server";

/**
 * A preference cookie holding one short, plain value (`gt_theme=dark`), readable in the
 * browser's devtools and by tests. Remix's `createCookie` would base64-encode JSON;
 * preferences need no signing because every value is validated against a fixed list.
 */
export function preferenceCookie<T extends string>(name: string, isValid: (v: string) => v is T) {
  const maxAge = 60 * 60 * 24 * 365; // one year: "remembered across visits"

  function read(request: Request): T | undefined {
    const header = request.headers.get("Cookie");
    if (!header) return undefined;
    for (const part of header.split(";")) {
      const eq = part.indexOf("=");
      if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
      let value = part.slice(eq + 1).trim();
      try {
        value = decodeURIComponent(value);
      } catch {
        return undefined;
      }
      return isValid(value) ? value : undefined;
    }
    return undefined;
  }

  function serialize(value: T): string {
    const attrs = [`${name}=${encodeURIComponent(value)}`, "Path=/", `Max-Age=${maxAge}`, "SameSite=Lax", "HttpOnly"];
    if (getEnv().SECURE_COOKIES) attrs.push("Secure");
    return attrs.join("; ");
  }

  return { name, read, serialize };
}
