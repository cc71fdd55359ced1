ALTER TABLE "api_tokens" ADD COLUMN "prefix" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "api_tokens_operator_id_index" ON "api_tokens" USING btree ("operator_id");