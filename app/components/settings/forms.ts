/**
 * The Settings page's forms (CONVENTIONS rule 3: one zod schema per form, used on both
 * sides): the route's action parses them; the browser loads this module after the page
 * (`lazyValidation`, app/components/ui/lazy-validation.ts) and validates with the same
 * schemas through conform. The loader sends `getZodConstraint` of each, so the inputs carry
 * their HTML constraints (required, lengths) from the first render without zod in the page.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { loginPasswordSchema, newPasswordSchema, tokenNameSchema } from "~/utils/operator-rules";

export { parseWithZod };

export const CreateTokenSchema = z.object({ intent: z.literal("create-token"), name: tokenNameSchema });

export const ChangePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    currentPassword: loginPasswordSchema,
    newPassword: newPasswordSchema,
    confirmPassword: z.string({ error: "Confirm the new password" }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: "Passwords do not match", path: ["confirmPassword"] });
