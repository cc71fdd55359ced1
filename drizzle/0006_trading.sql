CREATE TABLE "ads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ads_message" text NOT NULL,
	"category" text DEFAULT 'ads' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_planets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "planet_sequences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"steps" jsonb NOT NULL,
	"seconds" integer DEFAULT 6 NOT NULL,
	"closed_planets_level" integer DEFAULT 51 NOT NULL,
	"open_planets_level" integer DEFAULT 15 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ads_created_at_index" ON "ads" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_planets_type_name_unique" ON "custom_planets" USING btree ("type",lower("name"));--> statement-breakpoint
CREATE INDEX "planet_sequences_position_index" ON "planet_sequences" USING btree ("position");