CREATE TABLE "collections_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL,
	"status" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collections_connections" (
	"account_id" text PRIMARY KEY NOT NULL,
	"desired" text DEFAULT 'disconnected' NOT NULL,
	"state" text DEFAULT 'disconnected' NOT NULL,
	"error" text,
	"planet" text,
	"wanted_planet" text,
	"worker" text,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collections_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" uuid NOT NULL,
	"account_id" text NOT NULL,
	"nick" text NOT NULL,
	"profile_pic" text,
	"password" text NOT NULL,
	"login_method" text DEFAULT 'recovery' NOT NULL,
	"last_used" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collections_state" (
	"operator_id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid,
	"collection_id" integer DEFAULT 178 NOT NULL,
	"recipient_id" text DEFAULT '10000001' NOT NULL,
	"auto" boolean DEFAULT false NOT NULL,
	"repeat" integer DEFAULT 0 NOT NULL,
	"interval_seconds" integer DEFAULT 30 NOT NULL,
	"run_count" integer DEFAULT 0 NOT NULL,
	"auto_chain" text,
	"auto_step" text,
	"gift_ids" jsonb,
	"gifts_at" timestamp with time zone,
	"items" jsonb,
	"items_collection_id" integer,
	"items_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collections_activity" ADD CONSTRAINT "collections_activity_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections_profiles" ADD CONSTRAINT "collections_profiles_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections_state" ADD CONSTRAINT "collections_state_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections_state" ADD CONSTRAINT "collections_state_profile_id_collections_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."collections_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "collections_activity_operator_id_id_index" ON "collections_activity" USING btree ("operator_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "collections_profiles_operator_id_account_id_index" ON "collections_profiles" USING btree ("operator_id","account_id");--> statement-breakpoint
CREATE INDEX "collections_profiles_operator_id_last_used_index" ON "collections_profiles" USING btree ("operator_id","last_used");