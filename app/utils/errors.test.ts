import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { errorText, scrubLogText } from "./errors";

/** Issue 7 #5: error text fit for System Logs (the real-database case is in app/models/log.server.test.ts). */
describe("errorText", () => {
  it("reduces a Drizzle query error to the driver's message and code", () => {
    const cause = Object.assign(new Error("value too long for type character varying(32)"), { code: "22001" });
    const err = new DrizzleQueryError('insert into "operators" ("name") values ($1)', ["hunter2-secret"], cause);
    expect(errorText(err)).toBe("value too long for type character varying(32) (22001)");
  });

  it("hides the value PostgreSQL quotes at the end of its message", () => {
    const cause = Object.assign(new Error('invalid input syntax for type uuid: "hunter2-secret"'), { code: "22P02" });
    expect(errorText(cause)).toBe('invalid input syntax for type uuid: "…"');
    // Identifiers in the middle stay: they are the useful part.
    const dup = Object.assign(new Error('duplicate key value violates unique constraint "operators_name_unique"'), { code: "23505" });
    expect(errorText(dup)).toBe('duplicate key value violates unique constraint "operators_name_unique"');
  });

  it("passes other errors through, scrubbed, and stringifies non-errors", () => {
    expect(errorText(new Error("Galaxy answered 503"))).toBe("Galaxy answered 503");
    expect(errorText("plain")).toBe("plain");
    expect(errorText(new Error("wrapped: Failed query: select 1\nparams: hunter2-secret"))).toBe("wrapped: Database query failed (statement hidden)");
  });
});

describe("scrubLogText", () => {
  it("drops a Failed query / params tail wherever it starts", () => {
    expect(scrubLogText("Loading failed: Failed query: select * from x where a = $1\nparams: hunter2-secret")).toBe(
      "Loading failed: Database query failed (statement hidden)",
    );
    expect(scrubLogText("oops params: a,b")).toBe("oops (parameters hidden)");
    expect(scrubLogText("nothing to hide")).toBe("nothing to hide");
  });
});
