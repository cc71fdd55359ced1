import { describe, expect, it } from "vitest";
import { mintsReadOnlyTokens, TOKEN_CANNOT_LOG_OUT, writeAccessRefusal, writeRuleFor } from "./access.server";
import { ADMIN_ONLY, READ_ONLY_TOKEN_REFUSAL, VIEWER_REFUSAL, type Role } from "../utils/roles";

/** Issue 28 item 1 (docs/decisions/0024): the one write rule, credential first, path second. */
const op = (role: Role) => ({ id: "o", name: role, role, createdAt: new Date() }) as never;
const cookie = (role: Role) => ({ operator: op(role), via: "session" as const });
const token = (role: Role, readOnly = false) => ({ operator: op(role), via: "token" as const, token: { id: "t", name: "t", readOnly } });

describe("writeAccessRefusal", () => {
  it("a read-only token writes nothing, on any path, whatever the role — the personal paths included", () => {
    for (const path of ["/settings", "/settings.data", "/resources/theme", "/logout", "/login", "/admin/queues/api/queues/pause", "/api/rates", "/gifts"]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        expect(writeAccessRefusal(method, path, token("admin", true)), `${method} ${path}`).toBe(READ_ONLY_TOKEN_REFUSAL);
        expect(writeAccessRefusal(method, path, token("admin", true), "create-token")).toBe(READ_ONLY_TOKEN_REFUSAL);
      }
      expect(writeAccessRefusal("GET", path, token("admin", true))).toBeNull();
      expect(writeAccessRefusal("HEAD", path, token("admin", true))).toBeNull();
    }
  });

  it("a viewer's token writes nothing either; a viewer's cookie keeps its personal writes only", () => {
    expect(writeAccessRefusal("POST", "/settings", token("viewer"), "create-token")).toBe(VIEWER_REFUSAL);
    expect(writeAccessRefusal("POST", "/resources/theme", token("viewer"))).toBe(VIEWER_REFUSAL);
    expect(writeAccessRefusal("POST", "/settings", cookie("viewer"), "create-token")).toBeNull();
    expect(writeAccessRefusal("POST", "/settings", cookie("viewer"), "change-password")).toBeNull();
    expect(writeAccessRefusal("POST", "/resources/theme", cookie("viewer"))).toBeNull();
    expect(writeAccessRefusal("POST", "/logout", cookie("viewer"))).toBeNull();
    expect(writeAccessRefusal("POST", "/settings", cookie("viewer"), "create-operator")).toBe(VIEWER_REFUSAL);
    expect(writeAccessRefusal("POST", "/gifts", cookie("viewer"))).toBe(VIEWER_REFUSAL);
    expect(writeAccessRefusal("PUT", "/admin/queues/api/queues/pause", cookie("viewer"))).toBe(VIEWER_REFUSAL);
  });

  it("a token cannot log out; the admin intents and paths need an admin", () => {
    expect(writeAccessRefusal("POST", "/logout", token("admin"))).toBe(TOKEN_CANNOT_LOG_OUT);
    expect(writeAccessRefusal("POST", "/settings", token("operator"), "create-operator")).toBe(ADMIN_ONLY);
    expect(writeAccessRefusal("POST", "/settings", cookie("operator"), "delete-operator")).toBe(ADMIN_ONLY);
    expect(writeAccessRefusal("POST", "/settings", token("operator"), "create-token")).toBeNull();
    expect(writeAccessRefusal("POST", "/settings", cookie("admin"), "set-role")).toBeNull();
    expect(writeAccessRefusal("PUT", "/admin/queues/api/queues/pause", token("operator"))).toBe(ADMIN_ONLY);
    expect(writeAccessRefusal("PUT", "/admin/queues/api/queues/pause", token("admin"))).toBeNull();
    expect(writeAccessRefusal("POST", "/api/backup", cookie("operator"))).toBe(ADMIN_ONLY);
  });

  it("paths are compared as the router reads them; an unlisted path is a team write", () => {
    expect(writeRuleFor("/SETTINGS/")).toBe("personal");
    expect(writeRuleFor("/settings.data", "reset-password")).toBe("admin");
    expect(writeRuleFor("/a-route-added-tomorrow")).toBe("team");
  });

  it("a token a viewer mints is read-only; an operator's is as asked", () => {
    expect(mintsReadOnlyTokens(cookie("viewer"))).toBe(true);
    expect(mintsReadOnlyTokens(cookie("operator"))).toBe(false);
  });
});
