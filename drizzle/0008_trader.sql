CREATE TABLE "trader_sessions" (
	"account_id" text PRIMARY KEY NOT NULL,
	"desired" text DEFAULT 'stopped' NOT NULL,
	"state" text DEFAULT 'idle' NOT NULL,
	"planet" text,
	"error" text,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"worker" text,
	"position" jsonb,
	"counts" jsonb DEFAULT '{"visits":0,"posts":0,"replies":0,"skipped":0,"failures":0,"rounds":0}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trader_sessions" ADD CONSTRAINT "trader_sessions_account_id_users_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("account_id") ON DELETE cascade ON UPDATE no action;