import { z } from "zod";

/**
 * Rules for operator names and passwords, shared by the setup/login/settings forms
 * (client and server validation through conform) and by the models and the CLI.
 * Not a `.server` module because the forms validate in the browser too.
 */
export const MIN_PASSWORD_LENGTH = 8;
/** argon2 hashes anything, but a megabyte "password" is only good for burning CPU. */
export const MAX_PASSWORD_LENGTH = 256;
export const MAX_NAME_LENGTH = 64;

export const operatorNameSchema = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required")
  .max(MAX_NAME_LENGTH, `Name must be at most ${MAX_NAME_LENGTH} characters`)
  .regex(/^[^\p{Cc}]+$/u, "Name must not contain control characters");

export const newPasswordSchema = z
  .string({ error: "Password is required" })
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

/** At login we only check presence: the old minimum may differ from today's. */
export const loginPasswordSchema = z
  .string({ error: "Password is required" })
  .min(1, "Password is required")
  .max(MAX_PASSWORD_LENGTH, "Invalid name or password");

export const MAX_TOKEN_NAME_LENGTH = 64;
export const tokenNameSchema = z
  .string({ error: "Token name is required" })
  .trim()
  .min(1, "Token name is required")
  .max(MAX_TOKEN_NAME_LENGTH, `Token name must be at most ${MAX_TOKEN_NAME_LENGTH} characters`);
