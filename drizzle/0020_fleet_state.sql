CREATE TABLE "fleet_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"users" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "fleet_state_one_row" CHECK ("fleet_state"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "users_page_order_index" ON "users" USING btree ((case coalesce(nullif(btrim("type"), ''), 'unknown') when 'stalker' then 0 when 'trading' then 1 when 'bowling' then 2 else 3 end),lower(coalesce(nullif(btrim("type"), ''), 'unknown')),(coalesce(nullif(btrim("type"), ''), 'unknown')),lower("nick"),"nick","account_id");--> statement-breakpoint
-- Hand-written below (drizzle-kit does not generate triggers): fleet_state is kept by the
-- writes themselves, so reading it never scans the fleet (app/db/schema/accounts.ts).
INSERT INTO "fleet_state" ("id", "version", "users") SELECT 1, 0, count(*)::int FROM "users";
--> statement-breakpoint
CREATE FUNCTION "fleet_state_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "fleet_state" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "fleet_state_users_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "fleet_state" SET "version" = "version" + 1, "users" = "users" + (SELECT count(*) FROM "added")::int WHERE "id" = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "fleet_state_users_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "fleet_state" SET "version" = "version" + 1, "users" = "users" - (SELECT count(*) FROM "removed")::int WHERE "id" = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "fleet_state_users_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "fleet_state" SET "version" = "version" + 1, "users" = 0 WHERE "id" = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_fleet_state_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "fleet_state_users_added"();
--> statement-breakpoint
CREATE TRIGGER "users_fleet_state_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "fleet_state_users_removed"();
--> statement-breakpoint
CREATE TRIGGER "users_fleet_state_update" AFTER UPDATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "fleet_state_bump"();
--> statement-breakpoint
CREATE TRIGGER "users_fleet_state_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "fleet_state_users_truncated"();
--> statement-breakpoint
CREATE TRIGGER "character_details_fleet_state" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "character_details" FOR EACH STATEMENT EXECUTE FUNCTION "fleet_state_bump"();
