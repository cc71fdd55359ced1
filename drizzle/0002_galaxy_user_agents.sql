CREATE TABLE "galaxy_user_agents" (
	"account_id" text PRIMARY KEY NOT NULL,
	"headers" jsonb NOT NULL,
	"sek" text,
	"device" text DEFAULT 'web' NOT NULL,
	"nick" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
