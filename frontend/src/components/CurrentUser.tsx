import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { meQuery } from "../api/queries";
import type { CurrentUser, Role } from "../api/types";

const ROLE_RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

/** Each role includes the ones before it: admin ⊇ operator ⊇ viewer. With a cluster: the role
 * held on that cluster (none when it is not in `cluster_roles`); without: the highest anywhere. */
export function hasRole(user: CurrentUser | null, needed: Role, cluster?: string): boolean {
  if (user === null) return false;
  const held = cluster === undefined ? user.role : user.cluster_roles[cluster];
  return held !== undefined && held !== null && ROLE_RANK[held] >= ROLE_RANK[needed];
}

interface CurrentUserState {
  user: CurrentUser | null;
  error: Error | null;
}

const CurrentUserContext = createContext<CurrentUserState>({ user: null, error: null });

/** Fetches GET /me once for the whole app (a 401 there sends the browser to /login/). */
export function CurrentUserProvider({ children }: { children: ReactNode }) {
  const { data, error } = useQuery(meQuery());
  const state = useMemo<CurrentUserState>(() => ({ user: data ?? null, error: data ? null : error }), [data, error]);
  return <CurrentUserContext.Provider value={state}>{children}</CurrentUserContext.Provider>;
}

/** The signed-in user (null while loading or on error). */
export function useCurrentUser(): CurrentUserState {
  return useContext(CurrentUserContext);
}

/** For a signed-in user whose role is below `role` (nothing while loading): a warning, `children`
 * followed by the user's role ("… for your role (viewer)."). */
export function RoleNotice({ role, testId, children }: { role: Role; testId: string; children: ReactNode }) {
  const { user } = useCurrentUser();
  if (!user || hasRole(user, role)) return null;
  return (
    <p className="notice notice-warn" data-testid={testId}>
      {children} ({user.role}).
    </p>
  );
}
