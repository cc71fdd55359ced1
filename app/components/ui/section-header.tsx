import { Flex, Heading } from "@radix-ui/themes";
import type { ReactNode } from "react";

/**
 * The top of every section (spec 2, "Main app shell": "Header buttons per section").
 * The title is the page's h1; `actions` are that section's own header buttons.
 * On a phone the buttons wrap under the title.
 */
export function SectionHeader({ title, actions, children }: { title: string; actions?: ReactNode; children?: ReactNode }) {
  return (
    <Flex asChild align="center" justify="between" gap="3" wrap="wrap" mb="4">
      <header className="gt-section-header">
        <Heading as="h1" size={{ initial: "5", sm: "6" }}>
          {title}
        </Heading>
        {actions ? (
          <Flex align="center" gap="2" wrap="wrap" className="gt-section-actions">
            {actions}
          </Flex>
        ) : null}
        {children}
      </header>
    </Flex>
  );
}
