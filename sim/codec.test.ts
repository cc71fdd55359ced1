/**
 * The simulator's own line codec (issue 34 item 5) against the client's parser: both read the
 * recorded real server lines (issue 34 item 6) the same way, and what each formats the other
 * reads back. Reference galaxy-platform.md §2 "Framing and line syntax".
 */
import { describe, expect, it } from "vitest";
import { formatLine, parseLine, splitFrame } from "~/galaxy/protocol";
import { REAL_LINES } from "~/galaxy/real-lines.fixture";
import { simFormat, simParse, simSplit } from "./codec";

describe("sim codec", () => {
  it("reads every recorded real line as the client's parser does", () => {
    for (const { line } of REAL_LINES) {
      const mine = simParse(line);
      const theirs = parseLine(line);
      expect(mine, line).toEqual({ prefix: theirs.prefix, command: theirs.command, params: theirs.params, trailing: theirs.trailing });
    }
  });

  it("round-trips the real lines: sim format → client parse, client format → sim parse, both back to the recorded text", () => {
    for (const { line } of REAL_LINES) {
      const m = simParse(line)!;
      const out = simFormat(m.command, m.params, m.trailing, m.prefix);
      expect(out).toBe(`${line}\r\n`);
      const back = parseLine(out);
      expect(formatLine({ prefix: back.prefix, command: back.command, params: back.params, trailing: back.trailing })).toBe(out);
      expect(simParse(splitFrame(out)[0]!)).toEqual(m);
    }
  });

  it("splits frames as §2 says: CRLF or LF, a last line without CRLF, trailing spaces dropped", () => {
    const frame = "PING\r\nJOIN Galaxy \r\nPRIVMSG 0 0 :hi  there \nQUIT :ds";
    expect(simSplit(frame)).toEqual(["PING", "JOIN Galaxy", "PRIVMSG 0 0 :hi  there", "QUIT :ds"]);
    expect(simSplit(frame)).toEqual(splitFrame(frame));
    expect(simSplit("\r\n\r\n")).toEqual([]);
  });

  it("refuses what would change a line's meaning, and reads bad lines as malformed", () => {
    expect(() => simFormat("PRIVMSG", ["a b"])).toThrow();
    expect(() => simFormat("PRIVMSG", [":x"])).toThrow();
    expect(() => simFormat("PRIVMSG", [], "a\r\nQUIT")).toThrow();
    expect(simParse(":onlyprefix")).toBeNull();
    expect(simParse(":srv :text")).toBeNull();
    expect(simParse("B@D x")).toBeNull();
    expect(simParse(":srv 850 :a :b")).toEqual({ prefix: "srv", command: "850", params: [], trailing: "a :b" });
  });
});
