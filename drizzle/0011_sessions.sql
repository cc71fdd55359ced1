CREATE TABLE "sightings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"nick" text NOT NULL,
	"planet" text NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"left_at" timestamp with time zone,
	"seen_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_commands" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"arg" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"purpose" text NOT NULL,
	"key" text NOT NULL,
	"account_id" text,
	"desired" text DEFAULT 'stop' NOT NULL,
	"actual" text DEFAULT 'stopped' NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"error" text,
	"note" text,
	"attempt" integer DEFAULT 0 NOT NULL,
	"next_retry_at" timestamp with time zone,
	"holder" text,
	"planet" text,
	"info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_purpose_key_pk" PRIMARY KEY("purpose","key")
);
--> statement-breakpoint
CREATE INDEX "sightings_planet_index" ON "sightings" USING btree ("planet");--> statement-breakpoint
CREATE INDEX "session_commands_purpose_key_status_index" ON "session_commands" USING btree ("purpose","key","status");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_one_holder_per_account" ON "sessions" USING btree ("account_id") WHERE "sessions"."desired" = 'run' and "sessions"."account_id" is not null;--> statement-breakpoint
CREATE INDEX "sessions_actual_index" ON "sessions" USING btree ("actual");