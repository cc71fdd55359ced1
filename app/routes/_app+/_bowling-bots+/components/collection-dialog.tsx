import { Badge, Text } from "@radix-ui/themes";
import { DialogButtons, DialogCancel, DialogFrame } from "~/components/ui/dialog-frame";
import type { BowlingRow } from "~/routes/_app+/_bowling-bots+/gifts";
import { COLLECTION_TITLE, collectionTotal } from "./bowling-view";
import { RemoteImage } from "./remote-image";

/** Collection popup (spec 1 §2): 'Capybara', 'N items', a 4-column grid of items with counts; red badge at 0. */
export function CollectionDialog({ open, onClose, closeHref, row }: { open: boolean; onClose: () => void; closeHref: string; row: BowlingRow | null }) {
  const items = row?.collection ?? [];
  return (
    <DialogFrame open={open && !!row} onClose={onClose} closeHref={closeHref} title={COLLECTION_TITLE} maxWidth="420px">
      <Text as="p" size="2" mb="3" data-testid="collection-total">
        {collectionTotal(row?.collection ?? null)} items
      </Text>
      <ul className="gt-capybara-grid" aria-label={`${COLLECTION_TITLE} items of ${row?.nick ?? ""}`}>
        {items.map((item, i) => (
          <li key={i} className="gt-capybara-item" data-count={item.count}>
            <RemoteImage src={item.imageUrl} alt={`Item ${i + 1}`} size={40} />
            <Badge color={item.count === 0 ? "red" : "gray"} variant="solid" radius="full" size="1" aria-label={`count ${item.count}`}>
              {item.count}
            </Badge>
          </li>
        ))}
      </ul>
      <DialogButtons>
        <DialogCancel>Close</DialogCancel>
      </DialogButtons>
    </DialogFrame>
  );
}
