CREATE TABLE "exchange_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"input_item" text NOT NULL,
	"output_item" text NOT NULL,
	"tiers" jsonb NOT NULL,
	"status" boolean DEFAULT true NOT NULL,
	"position" bigint GENERATED ALWAYS AS IDENTITY (sequence name "exchange_rates_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_pair_unique" UNIQUE("input_item","output_item")
);
--> statement-breakpoint
CREATE INDEX "exchange_rates_position_index" ON "exchange_rates" USING btree ("position");