import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnv } from "./env.server";
import { decryptSecret, deriveKey, encryptSecret, isEncryptedSecret, resetSecretKey } from "./secrets.server";

/**
 * Issue "Foundation" item 3: "Provide one helper that encrypts secrets at rest
 * (AES-256-GCM, key from APP_SECRET or a generated ./data/secret.key)."
 */
const saved = { APP_SECRET: process.env.APP_SECRET, DATA_DIR: process.env.DATA_DIR };
let dir: string;

function useEnv(vars: { APP_SECRET?: string; DATA_DIR?: string }) {
  Object.assign(process.env, vars);
  resetEnv();
  resetSecretKey();
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-secrets-"));
});
afterEach(() => {
  useEnv({ APP_SECRET: saved.APP_SECRET, DATA_DIR: saved.DATA_DIR });
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Flips one bit of one base64url part of "v1:iv:tag:ct". */
function flip(stored: string, part: 1 | 2 | 3): string {
  const parts = stored.split(":");
  const bytes = Buffer.from(parts[part]!, "base64url");
  bytes[0] ^= 0x01;
  parts[part] = bytes.toString("base64url");
  return parts.join(":");
}

describe("encryptSecret / decryptSecret (AES-256-GCM)", () => {
  it("round-trips text, including empty and non-ASCII secrets", () => {
    useEnv({ APP_SECRET: "a".repeat(40), DATA_DIR: dir });
    for (const plain of ["hunter2", "", "пароль ✦ 密码", "x".repeat(10_000)]) {
      const stored = encryptSecret(plain);
      expect(isEncryptedSecret(stored)).toBe(true);
      expect(stored).not.toContain(plain || "\u0000");
      expect(decryptSecret(stored)).toBe(plain);
    }
  });

  it("uses a fresh IV each time, so equal secrets do not look equal at rest", () => {
    useEnv({ APP_SECRET: "a".repeat(40), DATA_DIR: dir });
    const a = encryptSecret("same");
    const b = encryptSecret("same");
    expect(a).not.toBe(b);
    expect(a.split(":")[1]).not.toBe(b.split(":")[1]);
  });

  it("detects tampering with the ciphertext, the tag or the IV", () => {
    useEnv({ APP_SECRET: "a".repeat(40), DATA_DIR: dir });
    const stored = encryptSecret("recovery-code-123");
    expect(() => decryptSecret(flip(stored, 3))).toThrow();
    expect(() => decryptSecret(flip(stored, 2))).toThrow();
    expect(() => decryptSecret(flip(stored, 1))).toThrow();
  });

  it("rejects a truncated authentication tag (GCM accepts short tags unless told not to)", () => {
    useEnv({ APP_SECRET: "a".repeat(40), DATA_DIR: dir });
    const [v, iv, tag, ct] = encryptSecret("recovery-code-123").split(":");
    const short = Buffer.from(tag!, "base64url").subarray(0, 4).toString("base64url");
    expect(() => decryptSecret([v, iv, short, ct].join(":"))).toThrow();
  });

  it("rejects values that are not in the stored format", () => {
    useEnv({ APP_SECRET: "a".repeat(40), DATA_DIR: dir });
    expect(() => decryptSecret("plain text")).toThrow("Not an encrypted secret");
    expect(() => decryptSecret("v2:a:b:c")).toThrow("Not an encrypted secret");
    expect(isEncryptedSecret("hunter2")).toBe(false);
  });

  it("cannot be decrypted under another key", () => {
    useEnv({ APP_SECRET: "a".repeat(40), DATA_DIR: dir });
    const stored = encryptSecret("game password");
    useEnv({ APP_SECRET: "b".repeat(40), DATA_DIR: dir });
    expect(() => decryptSecret(stored)).toThrow();
  });
});

describe("the key", () => {
  it("comes from APP_SECRET when set (HKDF-SHA256), and no key file is written", () => {
    const secret = "an-app-secret-of-at-least-32-characters!";
    useEnv({ APP_SECRET: secret, DATA_DIR: dir });
    const stored = encryptSecret("from APP_SECRET");
    expect(fs.existsSync(path.join(dir, "secret.key"))).toBe(false);

    // Decrypt independently with the documented derivation, proving which key was used.
    const key = Buffer.from(crypto.hkdfSync("sha256", Buffer.from(secret), Buffer.alloc(0), "galaxy-toolbox:secrets-at-rest", 32));
    const [, iv, tag, ct] = stored.split(":");
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv!, "base64url"), { authTagLength: 16 });
    decipher.setAuthTag(Buffer.from(tag!, "base64url"));
    const plain = Buffer.concat([decipher.update(Buffer.from(ct!, "base64url")), decipher.final()]).toString("utf8");
    expect(plain).toBe("from APP_SECRET");
  });

  it("is generated once into DATA_DIR/secret.key with mode 0600 when APP_SECRET is unset, and reused after a restart", () => {
    useEnv({ APP_SECRET: "", DATA_DIR: path.join(dir, "nested", "data") });
    const file = path.join(dir, "nested", "data", "secret.key");
    expect(fs.existsSync(file)).toBe(false);

    const stored = encryptSecret("from key file");
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64")).toHaveLength(32);

    // "Restart": forget the cached key; the same file must be read, not a new one made.
    const before = fs.readFileSync(file, "utf8");
    resetSecretKey();
    expect(decryptSecret(stored)).toBe("from key file");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("derives different keys for different purposes (cookie key ≠ encryption key)", () => {
    useEnv({ APP_SECRET: "a".repeat(40), DATA_DIR: dir });
    const cookie = deriveKey("session-cookie");
    const atRest = deriveKey("secrets-at-rest");
    expect(cookie).toHaveLength(32);
    expect(cookie.equals(atRest)).toBe(false);
    expect(deriveKey("session-cookie").equals(cookie)).toBe(true);
  });

  it("refuses a key file holding fewer than 32 bytes", () => {
    useEnv({ APP_SECRET: "", DATA_DIR: dir });
    fs.writeFileSync(path.join(dir, "secret.key"), Buffer.alloc(8).toString("base64"), { mode: 0o600 });
    expect(() => encryptSecret("x")).toThrow(/fewer than 32 bytes/);
  });
});
