DROP TABLE "stalker_sessions" CASCADE;--> statement-breakpoint
DROP TABLE "stalker_sightings" CASCADE;--> statement-breakpoint
DROP TABLE "collections_connections" CASCADE;--> statement-breakpoint
DROP TABLE "galacord_commands" CASCADE;--> statement-breakpoint
ALTER TABLE "trader_sessions" DROP COLUMN "desired";--> statement-breakpoint
ALTER TABLE "trader_sessions" DROP COLUMN "state";--> statement-breakpoint
ALTER TABLE "trader_sessions" DROP COLUMN "planet";--> statement-breakpoint
ALTER TABLE "trader_sessions" DROP COLUMN "error";--> statement-breakpoint
ALTER TABLE "trader_sessions" DROP COLUMN "since";--> statement-breakpoint
ALTER TABLE "trader_sessions" DROP COLUMN "worker";--> statement-breakpoint
ALTER TABLE "galacord_accounts" DROP COLUMN "desired";--> statement-breakpoint
ALTER TABLE "galacord_accounts" DROP COLUMN "state";--> statement-breakpoint
ALTER TABLE "galacord_accounts" DROP COLUMN "error";--> statement-breakpoint
ALTER TABLE "galacord_bot" DROP COLUMN "desired";--> statement-breakpoint
ALTER TABLE "galacord_bot" DROP COLUMN "state";--> statement-breakpoint
ALTER TABLE "galacord_bot" DROP COLUMN "error";--> statement-breakpoint
ALTER TABLE "galacord_bot" DROP COLUMN "worker";--> statement-breakpoint
ALTER TABLE "galacord_bot" DROP COLUMN "since";