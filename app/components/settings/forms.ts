/**
 * The Settings page's forms (CONVENTIONS rule 3: one zod schema per form, used on both
 * sides): the route's action parses them; the browser loads this module after the page
 * (`lazyValidation`, app/components/ui/lazy-validation.ts) and validates with the same
 * schemas through conform. The loader sends `getZodConstraint` of each, so the inputs carry
 * their HTML constraints (required, lengths) from the first render without zod in the page.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { loginPasswordSchema, newPasswordSchema, operatorNameSchema, tokenNameSchema } from "~/utils/operator-rules";

export { parseWithZod };

export const CreateTokenSchema = z.object({
  intent: z.literal("create-token"),
  name: tokenNameSchema,
  // A checkbox: "on" when ticked, absent otherwise.
  readOnly: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "true" || v === "1"),
});

export const ChangePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    currentPassword: loginPasswordSchema,
    newPassword: newPasswordSchema,
    confirmPassword: z.string({ error: "Confirm the new password" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords do not match", path: ["confirmPassword"] });

// ---- Operators and backups (admins; docs/decisions/0016, 0017) ----------------------------

const roleSchema = z.enum(["admin", "operator", "viewer"], { error: "Choose admin, operator or viewer" });

export const CreateOperatorSchema = z.object({
  intent: z.literal("create-operator"),
  name: operatorNameSchema,
  password: newPasswordSchema,
  role: roleSchema,
});

export const SetRoleSchema = z.object({ intent: z.literal("set-role"), operatorId: z.uuid({ error: "No such operator" }), role: roleSchema });

export const ResetPasswordSchema = z.object({
  intent: z.literal("reset-password"),
  operatorId: z.uuid({ error: "No such operator" }),
  newPassword: newPasswordSchema,
});

export const DeleteOperatorSchema = z.object({ intent: z.literal("delete-operator"), operatorId: z.uuid({ error: "No such operator" }) });

export const BackupSchema = z
  .object({
    passphrase: z.string({ error: "Choose a passphrase" }).min(8, "The passphrase must be at least 8 characters").max(1024, "At most 1024 characters"),
    confirmPassphrase: z.string({ error: "Repeat the passphrase" }),
  })
  .refine((v) => v.passphrase === v.confirmPassphrase, { message: "The passphrases do not match", path: ["confirmPassphrase"] });
