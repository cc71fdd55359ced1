CREATE TABLE "daily_awards" (
	"account_id" text NOT NULL,
	"day" date NOT NULL,
	"awards" jsonb NOT NULL,
	"ball_stats" jsonb NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "daily_awards_account_id_day_pk" PRIMARY KEY("account_id","day")
);
--> statement-breakpoint
CREATE TABLE "gift_rates" (
	"name" text PRIMARY KEY NOT NULL,
	"rate" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
