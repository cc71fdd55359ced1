import { Button, Callout, Flex, Text } from "@radix-ui/themes";
import { Form, Link } from "@remix-run/react";
import { PURPOSE_PAGES, SESSION_TEXTS, type SessionView } from "#api/sessions";
import { SessionDetail } from "./session-detail";

export type TakeoverNoticeData = {
  intent: string;
  fields: Record<string, string>;
  message: string;
  holder: SessionView;
  cancelTo: string;
  formAction: string;
};

/**
 * The take-over question (app/http/takeover.server.ts): who holds the account, a link to where
 * it runs, and the same action again with `takeover=1`, or Cancel. A plain form: works the
 * same without JavaScript.
 */
export function TakeOverPanel({ notice }: { notice: TakeoverNoticeData }) {
  const { accountName: _name, ...fields } = notice.fields;
  return (
    // High contrast: light theme's amber text on the amber tint is 4.2:1, under WCAG's 4.5 (axe, tests/e2e/a11y.spec.ts).
    <Callout.Root color="amber" highContrast role="alertdialog" aria-labelledby="gt-takeover-text" mb="4" data-testid="takeover-panel">
      {/* Issue 30 A7: the column takes the callout's width and its buttons start at the text's
          left edge (they were centred under it). */}
      <Flex direction="column" gap="2" width="100%" align="start">
        <Text as="p" size="2" id="gt-takeover-text" weight="medium">
          {notice.message}
        </Text>
        <Text as="p" size="1" color="gray">
          Taking it over stops it there (that screen will say so). <Link to={PURPOSE_PAGES[notice.holder.purpose]}>Open it</Link>
        </Text>
        <SessionDetail session={notice.holder} />
        <Flex gap="3" justify="start" wrap="wrap">
          <Button asChild variant="soft" color="gray">
            <Link to={notice.cancelTo} replace preventScrollReset>
              Cancel
            </Link>
          </Button>
          <Form method="post" action={notice.formAction} replace preventScrollReset>
            {Object.entries({ ...fields, intent: notice.intent, takeover: "1", redirectTo: notice.cancelTo }).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <Button type="submit" color="amber">
              {SESSION_TEXTS.takeOver}
            </Button>
          </Form>
        </Flex>
      </Flex>
    </Callout.Root>
  );
}

/**
 * For forms that sign in with a recovery code (the code never travels in a URL, so these get no
 * take-over question): ask up front. Off by default; the refusal's message names the holder.
 */
export function TakeOverCheckbox({ disabled }: { disabled?: boolean }) {
  return (
    <Text as="label" size="1" color="gray" className="gt-takeover-check">
      <input type="checkbox" name="takeover" value="1" disabled={disabled} /> If the stalker, a trading run, GalaCord or Collections uses this account, take it
      over
    </Text>
  );
}
