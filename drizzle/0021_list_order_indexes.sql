CREATE INDEX "users_bowling_order_index" ON "users" USING btree (lower("nick"),"nick","account_id") WHERE "users"."type" = 'bowling';--> statement-breakpoint
CREATE INDEX "ads_category_order_index" ON "ads" USING btree ("category","created_at","id");--> statement-breakpoint
CREATE INDEX "planet_sequences_order_index" ON "planet_sequences" USING btree ("position","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_at_id_index" ON "audit_log" USING btree ("at","id");