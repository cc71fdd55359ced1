import { NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { SECTIONS } from "./sections";

/**
 * The section menu (spec 2, "Main app shell"): six sections in the spec's order, each a
 * plain link to its own URL, so it works without JavaScript and in new tabs. The current
 * section carries aria-current="page". On a phone the strip is one row that scrolls
 * sideways (issue 19 item 12); with JavaScript the current section is scrolled into view.
 */
export function SectionMenu() {
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    const box = nav.current;
    const current = box?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!box || !current || box.scrollWidth <= box.clientWidth) return;
    // Only the strip scrolls (scrollIntoView could move the page too).
    const left = current.getBoundingClientRect().left - box.getBoundingClientRect().left + box.scrollLeft;
    if (left < box.scrollLeft || left + current.offsetWidth > box.scrollLeft + box.clientWidth) {
      box.scrollLeft = left - (box.clientWidth - current.offsetWidth) / 2;
    }
  }, [pathname]);
  return (
    <nav aria-label="Sections" className="gt-section-menu" ref={nav}>
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.id}>
            <NavLink to={section.path} prefetch="intent" data-section={section.id} className="gt-section-link">
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
