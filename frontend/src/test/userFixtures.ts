// Console users as GET users and users/{id} answer them (accounts/users.py's user_row).
import type { ConsoleUser } from "../api/types";

/** A viewer everywhere with roles on two single clusters, signing in with tokens only. */
export const BOB: ConsoleUser = {
  id: 7,
  username: "bob",
  is_active: true,
  is_superuser: false,
  role: "viewer",
  cluster_roles: { staging: "admin", local: "operator" },
  has_password: false,
  sso: false,
  last_login: null,
  date_joined: "2026-07-01T09:30:00Z",
  tokens: 2,
};
