import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataPath, getEnv } from "./env.server";

/**
 * Secrets at rest (game passwords, recovery codes): AES-256-GCM with a key derived from
 * APP_SECRET, or from a random key generated once into ./data/secret.key (mode 0600).
 * Stored form: "v1:<iv b64url>:<tag b64url>:<ciphertext b64url>".
 */
let master: Buffer | undefined;

function masterSecret(): Buffer {
  if (master) return master;
  const env = getEnv();
  if (env.APP_SECRET) {
    master = Buffer.from(env.APP_SECRET, "utf8");
    return master;
  }
  const file = dataPath("secret.key");
  try {
    master = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const key = crypto.randomBytes(32).toString("base64");
    try {
      fs.writeFileSync(file, key + "\n", { mode: 0o600, flag: "wx" });
    } catch {
      // Another process created it first: use theirs.
    }
    master = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  }
  if (master.length < 32) throw new Error(`${file} holds fewer than 32 bytes of key`);
  return master;
}

/** A purpose-bound 32-byte key, so the cookie key and the encryption key never coincide. */
export function deriveKey(purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", masterSecret(), Buffer.alloc(0), `galaxy-toolbox:${purpose}`, 32));
}

export function encryptSecret(plain: string): string {
  const key = deriveKey("secrets-at-rest");
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(":");
}

export function decryptSecret(stored: string): string {
  const parts = stored.split(":");
  const [v, iv, tag, ct] = parts;
  if (parts.length !== 4 || v !== "v1" || !iv || !tag || ct === undefined) throw new Error("Not an encrypted secret");
  // A fixed 16-byte tag: Node would otherwise accept a truncated tag (and a forgery
  // needing only 2^32 tries).
  const decipher = crypto.createDecipheriv("aes-256-gcm", deriveKey("secrets-at-rest"), Buffer.from(iv, "base64url"), {
    authTagLength: 16,
  });
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
}

export function isEncryptedSecret(value: string) {
  return /^v1:[\w-]+:[\w-]+:[\w-]*$/.test(value);
}

/** Forget the cached key (tests switch DATA_DIR/APP_SECRET). */
export function resetSecretKey() {
  master = undefined;
}
