CREATE TABLE "job_steps" (
	"key" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"result" jsonb,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "job_steps_started_at_index" ON "job_steps" USING btree ("started_at");