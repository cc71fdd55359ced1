import { NavLink } from "@remix-run/react";
import { SECTIONS } from "./sections";

/**
 * The section menu (spec 2, "Main app shell"): six sections in the spec's order, each a
 * plain link to its own URL, so it works without JavaScript and in new tabs. The current
 * section carries aria-current="page". On a phone the strip scrolls sideways.
 */
export function SectionMenu() {
  return (
    <nav aria-label="Sections" className="gt-section-menu">
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
