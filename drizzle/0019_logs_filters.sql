DROP INDEX "logs_timestamp_index";--> statement-breakpoint
DROP INDEX "logs_type_source_index";--> statement-breakpoint
DROP INDEX "logs_account_timestamp_index";--> statement-breakpoint
CREATE INDEX "logs_timestamp_id_index" ON "logs" USING btree ("timestamp","id");--> statement-breakpoint
CREATE INDEX "logs_type_timestamp_index" ON "logs" USING btree ("type","timestamp","id");--> statement-breakpoint
CREATE INDEX "logs_source_timestamp_index" ON "logs" USING btree ("source","timestamp","id");--> statement-breakpoint
CREATE INDEX "logs_type_source_timestamp_index" ON "logs" USING btree ("type","source","timestamp","id");--> statement-breakpoint
CREATE INDEX "logs_open_timestamp_index" ON "logs" USING btree ("timestamp","id") WHERE not "logs"."cleared";--> statement-breakpoint
CREATE INDEX "logs_open_type_timestamp_index" ON "logs" USING btree ("type","timestamp","id") WHERE not "logs"."cleared";--> statement-breakpoint
CREATE INDEX "logs_open_source_timestamp_index" ON "logs" USING btree ("source","timestamp","id") WHERE not "logs"."cleared";--> statement-breakpoint
CREATE INDEX "logs_open_type_source_timestamp_index" ON "logs" USING btree ("type","source","timestamp","id") WHERE not "logs"."cleared";--> statement-breakpoint
CREATE INDEX "logs_cleared_timestamp_index" ON "logs" USING btree ("timestamp","id") WHERE "logs"."cleared";--> statement-breakpoint
CREATE INDEX "logs_cleared_type_timestamp_index" ON "logs" USING btree ("type","timestamp","id") WHERE "logs"."cleared";--> statement-breakpoint
CREATE INDEX "logs_cleared_source_timestamp_index" ON "logs" USING btree ("source","timestamp","id") WHERE "logs"."cleared";--> statement-breakpoint
CREATE INDEX "logs_cleared_type_source_timestamp_index" ON "logs" USING btree ("type","source","timestamp","id") WHERE "logs"."cleared";--> statement-breakpoint
CREATE INDEX "logs_account_type_timestamp_index" ON "logs" USING btree (("details" ->> 'accountId'),"type","timestamp","id") WHERE ("logs"."details" ->> 'accountId') is not null;--> statement-breakpoint
CREATE INDEX "logs_account_timestamp_index" ON "logs" USING btree (("details" ->> 'accountId'),"timestamp","id") WHERE ("logs"."details" ->> 'accountId') is not null;