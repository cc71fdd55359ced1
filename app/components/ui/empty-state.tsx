import { Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";

/**
 * One of the three empty states every list has (CONVENTIONS, "UI habits"): nothing yet
 * (with the action that creates something), no matches (with "Clear filters"), failed
 * (with Retry). `tone="error"` marks the failed one for assistive tech.
 */
export function EmptyState({
  icon,
  title,
  description,
  action,
  tone = "neutral",
}: {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  tone?: "neutral" | "error";
}) {
  return (
    <Flex
      direction="column"
      align="center"
      justify="center"
      gap="3"
      py="8"
      px="4"
      className="gt-empty-state"
      data-tone={tone}
      role={tone === "error" ? "alert" : undefined}
    >
      {icon ? (
        <Flex align="center" justify="center" className="gt-empty-icon" aria-hidden>
          {icon}
        </Flex>
      ) : null}
      <Heading as="h2" size="4" align="center">
        {title}
      </Heading>
      {description ? (
        <Text as="p" size="2" color="gray" align="center" className="gt-empty-description">
          {description}
        </Text>
      ) : null}
      {action ? (
        <Flex gap="2" wrap="wrap" justify="center">
          {action}
        </Flex>
      ) : null}
    </Flex>
  );
}
