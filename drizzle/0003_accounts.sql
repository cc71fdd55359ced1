CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_value_unique" UNIQUE("value")
);
--> statement-breakpoint
CREATE TABLE "character_details" (
	"account_id" text PRIMARY KEY NOT NULL,
	"pic_url" text,
	"pic_at" timestamp with time zone,
	"is_online" boolean,
	"room" text,
	"status_source" text,
	"status_at" timestamp with time zone,
	"gifts" jsonb,
	"gifts_failed" boolean DEFAULT false NOT NULL,
	"gifts_at" timestamp with time zone,
	"collection" jsonb,
	"collection_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stalker_sessions" (
	"account_id" text PRIMARY KEY NOT NULL,
	"desired" text DEFAULT 'stopped' NOT NULL,
	"state" text DEFAULT 'inactive' NOT NULL,
	"planet" text,
	"error" text,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"worker" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" text NOT NULL,
	"nick" text NOT NULL,
	"password" text NOT NULL,
	"recovery_code" text,
	"type" text,
	"i_headers" text,
	"sek" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_accountId_unique" UNIQUE("account_id")
);
--> statement-breakpoint
ALTER TABLE "stalker_sessions" ADD CONSTRAINT "stalker_sessions_account_id_users_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_type_index" ON "users" USING btree ("type");--> statement-breakpoint
-- A fresh database offers the types both specs name (issue 9); deleting one later is final.
INSERT INTO "categories" ("value") VALUES ('stalker'), ('trading'), ('bowling'), ('recipients'), ('suppliers') ON CONFLICT DO NOTHING;
