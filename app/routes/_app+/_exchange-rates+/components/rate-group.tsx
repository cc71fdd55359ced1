import type { SubmissionResult } from "@conform-to/react";
import { PlusIcon, TrashIcon } from "~/components/ui/icons";
import { Badge, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { GiftImage } from "~/components/gift-image";
import { findGift } from "~/data/gifts";
import { ViewButton } from "~/components/ui/view-button";
import { useCanWrite } from "~/components/ui/write-only";
import { rowFormId } from "./form-helpers";
import { RateRow } from "./rate-row";
import { pairKey, viewToParams, type RateGroup, type RatesView } from "./rates-view";
import type { RatesMap } from "#api/rates";

/**
 * One input gift (spec 1 §2): the header with its name, icon and count of outputs, the
 * add-output and delete-all buttons, then one row per output.
 */
export function RateGroupCard({
  group,
  saved,
  view,
  onView,
  lastResult,
}: {
  group: RateGroup;
  /** The rates as loaded (the rows' editors start from them). */
  saved: RatesMap;
  view: RatesView;
  onView: (next: RatesView | ((current: RatesView) => RatesView)) => void;
  lastResult?: { formId?: string; result?: SubmissionResult<string[]> };
}) {
  const { input } = group;
  const gift = findGift(input);
  const headingId = `group-${rowFormId(input, "")}`;
  const addView: RatesView = { ...view, dialog: { type: "add-output", input } };
  const deleteView: RatesView = { ...view, dialog: { type: "delete-input", input } };
  const count = group.total;
  const partial = group.from > 0 || group.outputs.length < group.matching;
  const canWrite = useCanWrite();

  return (
    <Card asChild className="gt-rate-group">
      <section aria-labelledby={headingId}>
        <Flex align="center" gap="3" wrap="wrap" className="gt-rate-group-header">
          <GiftImage name={input} size={36} />
          <Flex direction="column" className="gt-rate-group-title">
            <Heading as="h2" size="3" id={headingId}>
              {input}
            </Heading>
            {gift && gift.nick !== input ? (
              <Text size="1" color="gray">
                {gift.nick}
              </Text>
            ) : null}
          </Flex>
          <Badge variant="soft" color="gray" radius="full">
            {`${count} ${count === 1 ? "output" : "outputs"}`}
          </Badge>
          {/* The group goes on from the previous page, or on to the next (issue 20: pages of
              RATE_PAGE_SIZE pairs; the pager below the list reaches the rest). */}
          {partial ? (
            <Text size="1" color="gray" className="gt-rate-group-range">
              {`showing ${group.from + 1}–${group.from + group.outputs.length} of ${group.matching}${group.matching < count ? " matching" : ""}`}
            </Text>
          ) : null}
          {canWrite ? (
            <Flex gap="2" ml="auto" className="gt-rate-group-actions">
              <ViewButton
                params={(base) => viewToParams(addView, base)}
                onActivate={() => onView(addView)}
                size="1"
                variant="soft"
                className="gt-touch"
                aria-label={`Add output gift to ${input}`}
              >
                <PlusIcon /> <span className="gt-hide-narrow">Add output</span>
              </ViewButton>
              <ViewButton
                params={(base) => viewToParams(deleteView, base)}
                onActivate={() => onView(deleteView)}
                size="1"
                variant="soft"
                color="red"
                className="gt-touch"
                aria-label={`Delete all exchange rates for ${input}`}
              >
                <TrashIcon /> <span className="gt-hide-narrow">Delete all</span>
              </ViewButton>
            </Flex>
          ) : null}
        </Flex>
        <ul className="gt-rate-rows">
          {group.outputs.map(({ output, data }) => {
            const key = pairKey(input, output);
            const formId = rowFormId(input, output);
            return (
              <RateRow
                key={output}
                input={input}
                output={output}
                data={data}
                saved={saved[input]?.[output] ?? data}
                expanded={view.open.includes(key)}
                onToggle={() => onView((v) => ({ ...v, open: v.open.includes(key) ? v.open.filter((k) => k !== key) : [...v.open, key] }))}
                lastResult={lastResult?.formId === formId ? lastResult.result : undefined}
              />
            );
          })}
        </ul>
      </section>
    </Card>
  );
}
