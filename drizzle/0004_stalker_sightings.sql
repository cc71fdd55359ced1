CREATE TABLE "stalker_sightings" (
	"stalker_id" text NOT NULL,
	"user_id" text NOT NULL,
	"nick" text NOT NULL,
	"planet" text NOT NULL,
	"first_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"left_at" timestamp with time zone,
	CONSTRAINT "stalker_sightings_stalker_id_user_id_pk" PRIMARY KEY("stalker_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "stalker_sightings" ADD CONSTRAINT "stalker_sightings_stalker_id_users_account_id_fk" FOREIGN KEY ("stalker_id") REFERENCES "public"."users"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stalker_sightings_user_id_index" ON "stalker_sightings" USING btree ("user_id");