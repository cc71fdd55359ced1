CREATE TABLE "galacord_accounts" (
	"account_id" text PRIMARY KEY NOT NULL,
	"nick" text NOT NULL,
	"planet" text,
	"channel_id" text NOT NULL,
	"channel_name" text NOT NULL,
	"guild_name" text NOT NULL,
	"guild_id" text,
	"recovery_code" text NOT NULL,
	"password" text,
	"desired" text DEFAULT 'connected' NOT NULL,
	"state" text DEFAULT 'offline' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "galacord_bot" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"desired" text DEFAULT 'stopped' NOT NULL,
	"state" text DEFAULT 'stopped' NOT NULL,
	"error" text,
	"channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bot_user_id" text,
	"worker" text,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "galacord_commands" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"arg" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
