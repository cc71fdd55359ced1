import { Badge, Button, Flex, Text } from "@radix-ui/themes";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RowBadge, RowButton, RowFlex, RowText } from "./row-markup";

// Spec 1 §2 "Exchange-rate row": the row's plain elements must look exactly like the Radix
// components they stand in for (same element, classes and attributes).
const same = (plain: ReactElement, radix: ReactElement) => expect(renderToStaticMarkup(plain)).toBe(renderToStaticMarkup(radix));

describe("row markup matches Radix Themes", () => {
  it("Text", () => {
    same(
      <RowText size="2" weight="medium" className="gt-rate-name">
        Clay
      </RowText>,
      <Text as="div" size="2" weight="medium" className="gt-rate-name">
        Clay
      </Text>,
    );
    same(
      <RowText size="1" color="gray">
        CL
      </RowText>,
      <Text as="div" size="1" color="gray">
        CL
      </Text>,
    );
    same(
      <RowText size="2" className="gt-rate-value" title="1/2">
        1/2
      </RowText>,
      <Text as="div" size="2" className="gt-rate-value" title="1/2">
        1/2
      </Text>,
    );
  });

  it("Badge", () => {
    for (const color of ["indigo", "gray", "red", "orange"] as const) {
      same(
        <RowBadge color={color} variant="soft" className="gt-rate-kind">
          flat
        </RowBadge>,
        <Badge color={color} variant="soft" className="gt-rate-kind">
          flat
        </Badge>,
      );
    }
    same(
      <RowBadge color="gray" variant="outline" className="gt-rate-disabled-badge">
        Disabled
      </RowBadge>,
      <Badge color="gray" variant="outline" className="gt-rate-disabled-badge">
        Disabled
      </Badge>,
    );
  });

  it("Flex", () => {
    same(
      <RowFlex className="gt-rate-actions">x</RowFlex>,
      <Flex gap="2" className="gt-rate-actions">
        x
      </Flex>,
    );
  });

  it("Button (the rows' Show/Hide, Enable/Disable and Delete)", () => {
    same(
      <RowButton color="gray" variant="ghost" className="gt-touch gt-rate-expand" form="f" name="toggle" value="a|b" aria-label="Show tiers of b">
        x
      </RowButton>,
      <Button
        type="submit"
        size="1"
        variant="ghost"
        color="gray"
        className="gt-touch gt-rate-expand"
        form="f"
        name="toggle"
        value="a|b"
        aria-label="Show tiers of b"
      >
        x
      </Button>,
    );
    for (const color of ["gray", "green", "red"] as const) {
      same(
        <RowButton color={color} variant="soft" className="gt-touch" aria-label="Delete a → b">
          Delete
        </RowButton>,
        <Button type="submit" size="1" variant="soft" color={color} className="gt-touch" aria-label="Delete a → b">
          Delete
        </Button>,
      );
    }
  });
});
