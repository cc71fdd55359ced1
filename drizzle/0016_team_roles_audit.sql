CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"operator_id" uuid,
	"operator" text NOT NULL,
	"token" text,
	"action" text NOT NULL,
	"target" text DEFAULT '' NOT NULL,
	"details" jsonb
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "read_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD COLUMN "token_hash" text;--> statement-breakpoint
-- Sessions made before this migration: their cookie carries the row id, which becomes their token.
UPDATE "operator_sessions" SET "token_hash" = encode(sha256(convert_to("id"::text, 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "operator_sessions" ALTER COLUMN "token_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "role" text DEFAULT 'operator' NOT NULL;--> statement-breakpoint
-- The first operator is admin (docs/decisions/0016).
UPDATE "operators" SET "role" = 'admin' WHERE "id" = (SELECT "id" FROM "operators" ORDER BY "created_at", "id" LIMIT 1);--> statement-breakpoint
CREATE INDEX "audit_log_at_index" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_operator_id_index" ON "audit_log" USING btree ("operator","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_id_index" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_tokenHash_unique" UNIQUE("token_hash");