// Top-bar navigation. Add an entry here when its page exists (and its route in
// App.tsx); entries must lead somewhere real.
import type { Role } from "./api/types";

export interface NavItem {
  to: string;
  label: string;
  /** Highlight only on an exact match (for "/"). */
  end?: boolean;
  /** Other path prefixes under which this entry shows as current. */
  activePrefixes?: string[];
  /** Hide the entry from users below this role. */
  role?: Role;
}

export const NAV_ITEMS: NavItem[] = [
  { to: "/", label: "Clusters", end: true, activePrefixes: ["/clusters/"] },
];
