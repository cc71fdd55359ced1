-- Added by hand before the generated index: tokens created before names were unique keep
-- working; a repeated name gets " (2)", " (3)", … in creation order.
UPDATE "api_tokens" AS t SET "name" = t."name" || ' (' || d.n || ')'
FROM (SELECT "id", row_number() OVER (PARTITION BY "operator_id", "name" ORDER BY "created_at", "id") AS n FROM "api_tokens") AS d
WHERE d."id" = t."id" AND d.n > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_operator_name_unique" ON "api_tokens" USING btree ("operator_id","name");
--> statement-breakpoint
CREATE TABLE "rate_deletions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" uuid NOT NULL,
	"label" text NOT NULL,
	"rows" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rate_deletions" ADD CONSTRAINT "rate_deletions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rate_deletions_operator_id_created_at_index" ON "rate_deletions" USING btree ("operator_id","created_at");