import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  authCode,
  formatLine,
  lineTokens,
  maskLine,
  nativeAuthCode,
  NoticeAssembler,
  parseLine,
  ProtocolError,
  readHaaapsi,
  readJoin,
  readLeave,
  readMove,
  readNames,
  readPlanetInfo,
  readRegister,
  splitFrame,
} from "./protocol";

describe("authCode (reference §3.2)", () => {
  it("matches the reference's test vectors", () => {
    expect(authCode("abc")).toBe("07010e0802");
    expect(authCode("1234567890")).toBe("0a08030706");
  });

  it("equals the four-step description (reverse, interleave 0, 10 chars from index 5) on other seeds", () => {
    const stepwise = (seed: string) => {
      const reversed = crypto.createHash("md5").update(seed, "utf8").digest("hex").split("").reverse();
      return reversed.join("0").slice(5, 15);
    };
    for (const seed of ["Zq8uT0pLmA", "a", "ÄÖü-seed", "HAAAPSI", "0000000000"]) {
      const code = authCode(seed);
      expect(code).toBe(stepwise(seed));
      expect(code).toMatch(/^0[0-9a-f]0[0-9a-f]0[0-9a-f]0[0-9a-f]0[0-9a-f]$/);
    }
  });
});

describe("nativeAuthCode (reference §3.4, unverified single source)", () => {
  it("gives 10 characters of 0-9A-Za-z, deterministic per seed", () => {
    const a = nativeAuthCode("Zq8uT0pLmA");
    expect(a).toMatch(/^[0-9A-Za-z]{10}$/);
    expect(nativeAuthCode("Zq8uT0pLmA")).toBe(a);
    expect(nativeAuthCode("Zq8uT0pLmB")).not.toBe(a);
  });
});

describe("parseLine (reference §2 line shape)", () => {
  it("reads prefix, command, params and trailing", () => {
    const l = parseLine(":srv ACTION 123 456 :X gives Y a massage");
    expect(l).toMatchObject({ prefix: "srv", command: "ACTION", params: ["123", "456"], trailing: "X gives Y a massage" });
  });

  it("keeps colons inside the trailing part (it starts at the first ' :')", () => {
    const l = parseLine("PRIVMSG 1 0 0 :time is 12:30 :)");
    expect(l.params).toEqual(["1", "0", "0"]);
    expect(l.trailing).toBe("time is 12:30 :)");
  });

  it("tolerates a space before CRLF and collapses repeated spaces", () => {
    expect(parseLine("PONG \r\n")).toMatchObject({ command: "PONG", params: [], trailing: null, raw: "PONG" });
    expect(parseLine("JOIN   Cannon*3  ").params).toEqual(["Cannon*3"]);
  });

  it("reads a bare numeric and a numeric with params", () => {
    expect(parseLine("999")).toMatchObject({ command: "999", params: [], trailing: null });
    expect(parseLine("HAAAPSI Zq8uT0pLmA 20")).toMatchObject({ command: "HAAAPSI", params: ["Zq8uT0pLmA", "20"] });
  });

  it("reads the locale prefix of IDENT", () => {
    expect(parseLine(":en IDENT 352 -2 4030 1 2 :GALA")).toMatchObject({
      prefix: "en",
      command: "IDENT",
      params: ["352", "-2", "4030", "1", "2"],
      trailing: "GALA",
    });
  });

  it("rejects malformed lines with a ProtocolError", () => {
    for (const bad of [":srv", ":onlyprefix   ", ":srv :text", ":x", "%%% 1 2", "JO\0IN x"]) {
      expect(() => parseLine(bad), bad).toThrow(ProtocolError);
    }
  });

  it("masks credentials of USER/RECOVER/REGISTER in error lines", () => {
    expect(maskLine("USER 1234567 0123456789abcdef0123456789abcdef Nick 0a08030706")).toBe("USER [redacted]");
    expect(maskLine("RECOVER ksZ9bdHYPJ")).toBe("RECOVER [redacted]");
    let caught: unknown = null;
    try {
      parseLine("REGISTER 1 secretpw nick\0");
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ProtocolError);
    expect((caught as ProtocolError).line).toBe("REGISTER [redacted]");
  });
});

describe("splitFrame (reference §2 framing)", () => {
  it("splits on CRLF, accepts a last line without CRLF and bare LF, drops space before CRLF", () => {
    expect(splitFrame("900 Galaxy 60 0 0\r\n353 1 = Galaxy :- Nick 1 0 5\r\n366 \r\nPING")).toEqual([
      "900 Galaxy 60 0 0",
      "353 1 = Galaxy :- Nick 1 0 5",
      "366",
      "PING",
    ]);
    expect(splitFrame("A\nB\r\n\r\n")).toEqual(["A", "B"]);
  });
});

describe("formatLine", () => {
  it("formats with CRLF, prefix and trailing", () => {
    expect(formatLine("JOIN", ["Cannon*3"])).toBe("JOIN Cannon*3\r\n");
    expect(formatLine({ prefix: "en", command: "IDENT", params: [352, "-2", 4030, 1, 2], trailing: "GALA" })).toBe(":en IDENT 352 -2 4030 1 2 :GALA\r\n");
    expect(formatLine("QUIT", [], "ds")).toBe("QUIT :ds\r\n");
    expect(formatLine("PRIVMSG", [0, 0], "")).toBe("PRIVMSG 0 0 :\r\n");
  });

  it("refuses params with spaces and anything with CR/LF (no command smuggling)", () => {
    expect(() => formatLine("JOIN", ["Planet X"])).toThrow(ProtocolError);
    expect(() => formatLine("JOIN", ["X\r\nQUIT"])).toThrow(ProtocolError);
    expect(() => formatLine("PRIVMSG", [0, 0], "hi\r\nQUIT :ds")).toThrow(ProtocolError);
    expect(() => formatLine("JOIN", [""])).toThrow(ProtocolError);
    expect(() => formatLine("JOIN", [":x"])).toThrow(ProtocolError);
  });

  it("round-trips through parseLine", () => {
    const text = formatLine({ prefix: "srv", command: "850", params: [7, 0], trailing: "<b>a: b</b>" });
    expect(parseLine(text)).toMatchObject({ prefix: "srv", command: "850", params: ["7", "0"], trailing: "<b>a: b</b>" });
  });
});

describe("login lines (reference §3.1)", () => {
  it("HAAAPSI gives the seed", () => {
    expect(readHaaapsi(parseLine("HAAAPSI Zq8uT0pLmA 20"))).toEqual({ seed: "Zq8uT0pLmA" });
    expect(() => readHaaapsi(parseLine("HAAAPSI"))).toThrow(ProtocolError);
  });

  it("REGISTER gives id, password and nick; the nick may be the trailing part and hold ` [ ]", () => {
    expect(readRegister(parseLine("REGISTER 12345678 0123456789abcdef0123456789abcdef Ka[x]`"))).toEqual({
      id: "12345678",
      password: "0123456789abcdef0123456789abcdef",
      nick: "Ka[x]`",
    });
    expect(readRegister(parseLine("REGISTER 1234567 0123456789abcdef0123456789abcdef :Nick")).nick).toBe("Nick");
    expect(() => readRegister(parseLine("REGISTER abc pw nick"))).toThrow(ProtocolError);
    expect(() => readRegister(parseLine("REGISTER 1234567"))).toThrow(ProtocolError);
  });
});

describe("planet lines (reference §4, §5.1)", () => {
  it("900 gives planet, capacity, closed and mode", () => {
    expect(readPlanetInfo(parseLine("900 Cannon*12 35 0 2"))).toEqual({ name: "Cannon*12", capacity: 35, closed: false, mode: 2 });
    expect(readPlanetInfo(parseLine("900 Vault 20 1"))).toEqual({ name: "Vault", capacity: 20, closed: true, mode: null });
    expect(() => readPlanetInfo(parseLine("900"))).toThrow(ProtocolError);
  });

  it("353 records: N view groups, negative N, @ and + nicks, `@` crown groups", () => {
    const line = parseLine(
      "353 1 = Galaxy :- @Owner 1111111 -3 hb/12_ 0 -76 33 0 hb/b235_ 0 0 33 0 @ 116 27 126 121 778 " +
        "Stars +Star 2222222 1 hb/7_ 0 -76 33 0 40 " +
        "- Plain 33333333 0 12",
    );
    const { planet, users } = readNames(line);
    expect(planet).toBe("Galaxy");
    expect(users.map((u) => [u.id, u.nick, u.role, u.clan, u.views.length, u.position, u.x])).toEqual([
      ["1111111", "Owner", "owner", null, 3, 778, 1556],
      ["2222222", "Star", "operator", "Stars", 1, 40, 80],
      ["33333333", "Plain", null, null, 0, 12, 24],
    ]);
    expect(users[0].views[2]).toEqual({ url: "@", dx: "116", dy: "27", anchor: "126", extra: "121" });
  });

  it("353 with a truncated record is malformed", () => {
    expect(() => readNames(parseLine("353 1 = Galaxy :- Nick 1111111 2 hb/1_ 0 0 33 0 5"))).toThrow(ProtocolError);
    expect(() => readNames(parseLine("353 1 = Galaxy :- Nick notanid 0 5"))).toThrow(ProtocolError);
    expect(() => readNames(parseLine("353 1 = Galaxy :- Nick 1111111 x 5"))).toThrow(ProtocolError);
  });

  it("JOIN: the record with gender after the id and 3 teleport fields (the reference's sample shape)", () => {
    const { user, teleport } = readJoin(parseLine("JOIN - Nick 12345678 0 -3 hb/77_ 0 -76 33 0 hb/b235_ 0 0 33 0 @ 116 27 126 121 778 -1 -1 -1"));
    expect(user).toMatchObject({ id: "12345678", nick: "Nick", clan: null, gender: 0, position: 778, x: 1556 });
    expect(user.views).toHaveLength(3);
    expect(teleport).toEqual(["-1", "-1", "-1"]);
    expect(() => readJoin(parseLine("JOIN - Nick 12345678 0 2 hb/77_ 0 -76"))).toThrow(ProtocolError);
  });

  it("PART, SLEEP and REMOVE", () => {
    expect(readLeave(parseLine("PART 12345678 1 -1 -1 -1"))).toEqual({ id: "12345678" });
    expect(readLeave(parseLine("SLEEP 12345678"))).toEqual({ id: "12345678" });
    expect(readMove(parseLine("REMOVE 12345678 300"))).toEqual({ id: "12345678", position: 300 });
    expect(() => readLeave(parseLine("PART"))).toThrow(ProtocolError);
  });

  it("lineTokens joins params and trailing", () => {
    expect(lineTokens(parseLine("JOIN - Nick 1 :0 0 5 -1 -1 -1"))).toEqual(["-", "Nick", "1", "0", "0", "5", "-1", "-1", "-1"]);
  });
});

describe("850 notices (reference §4): chunks with one msgId until final = 1", () => {
  it("assembles chunks and keeps the title prefix", () => {
    const a = new NoticeAssembler();
    expect(a.push(parseLine(":Prison 850 42 0 :<p>You can imprison only in 3s"))).toBeNull();
    expect(a.push(parseLine("850 43 0 :other"))).toBeNull();
    expect(a.push(parseLine("850 42 0 : after you appear on Planet.</p>"))).toBeNull();
    expect(a.pending).toBe(2);
    expect(a.push(parseLine("850 42 1 :<p>Rules: 15s</p>"))).toEqual({
      id: "42",
      title: "Prison",
      html: "<p>You can imprison only in 3s after you appear on Planet.</p><p>Rules: 15s</p>",
    });
    expect(a.pending).toBe(1);
  });

  it("a notice without msgId is complete at once", () => {
    expect(new NoticeAssembler().push(parseLine(":srv 850 :You can't fly more often than once in 3 s"))).toEqual({
      id: null,
      title: "srv",
      html: "You can't fly more often than once in 3 s",
    });
  });

  it("bounds pending notices", () => {
    const a = new NoticeAssembler(2);
    for (let i = 0; i < 5; i++) a.push(parseLine(`850 ${i} 0 :x`));
    expect(a.pending).toBe(2);
  });
});
