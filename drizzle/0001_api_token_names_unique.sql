-- Added by hand before the generated index: tokens created before names were unique keep
-- working; a repeated name gets " (2)", " (3)", … in creation order.
UPDATE "api_tokens" AS t SET "name" = t."name" || ' (' || d.n || ')'
FROM (SELECT "id", row_number() OVER (PARTITION BY "operator_id", "name" ORDER BY "created_at", "id") AS n FROM "api_tokens") AS d
WHERE d."id" = t."id" AND d.n > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_operator_name_unique" ON "api_tokens" USING btree ("operator_id","name");
