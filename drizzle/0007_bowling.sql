CREATE TABLE "bowling_companions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bowling_id" text NOT NULL,
	"supplier" text NOT NULL,
	"consumer" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bowling_companions_bowlingId_unique" UNIQUE("bowling_id")
);
--> statement-breakpoint
ALTER TABLE "bowling_companions" ADD CONSTRAINT "bowling_companions_bowling_id_users_account_id_fk" FOREIGN KEY ("bowling_id") REFERENCES "public"."users"("account_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "bowling_companions" ADD CONSTRAINT "bowling_companions_supplier_users_account_id_fk" FOREIGN KEY ("supplier") REFERENCES "public"."users"("account_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "bowling_companions" ADD CONSTRAINT "bowling_companions_consumer_users_account_id_fk" FOREIGN KEY ("consumer") REFERENCES "public"."users"("account_id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "bowling_companions_supplier_index" ON "bowling_companions" USING btree ("supplier");--> statement-breakpoint
CREATE INDEX "bowling_companions_consumer_index" ON "bowling_companions" USING btree ("consumer");