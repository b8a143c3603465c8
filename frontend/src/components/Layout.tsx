import { Link, NavLink, Outlet, useLocation } from "react-router-dom";
import { usePendingApprovalCount } from "../hooks/useApprovals";
import { EXTERNAL_NAV_ITEMS, NAV_ITEMS } from "../navigation";
import { hasRole, useCurrentUser } from "./CurrentUser";
import { SignOutButton } from "./SignOutButton";

/** A signed-in user with no role on any cluster (single sign-on with no mapped group, or a
 * user an admin has not given one yet): every page would answer 403, so say why instead. */
function NoRole({ username }: { username: string }) {
  return (
    <section className="no-role" data-testid="no-role">
      <h1>No access yet</h1>
      <p>
        You are signed in as <strong>{username}</strong>, but you hold no role on any cluster, so there is
        nothing here you may see.
      </p>
      <p>
        An admin gives roles on the Users page. If you signed in with single sign-on, your roles come from your
        groups at the identity provider: ask for a group that the console maps to a role, then sign in again.
      </p>
    </section>
  );
}

/** Dark top bar (product name, nav, user, sign out) over the routed page. */
export function Layout() {
  const { user } = useCurrentUser();
  const location = useLocation();
  const noRole = user !== null && user.role === null;
  const items = noRole ? [] : NAV_ITEMS.filter((item) => !item.role || hasRole(user, item.role));
  const pendingApprovals = usePendingApprovalCount();

  return (
    <div className="app">
      <header className="topbar">
        <Link to="/" className="brand">
          Kafka Console
        </Link>
        <nav className="topnav" aria-label="Main">
          {items.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                isActive || item.activePrefixes?.some((p) => location.pathname.startsWith(p))
                  ? "topnav-link active"
                  : "topnav-link"
              }
            >
              {item.label}
              {item.count === "approvals" && pendingApprovals !== null && pendingApprovals > 0 && (
                <span
                  className="nav-count"
                  title={`${pendingApprovals} ${pendingApprovals === 1 ? "request waits" : "requests wait"} for approval`}
                  data-testid="nav-approvals-count"
                  data-count={pendingApprovals}
                >
                  {pendingApprovals}
                </span>
              )}
            </NavLink>
          ))}
          {/* Pages of the server (not routes of this app): a plain link, a full page load. */}
          {(noRole ? [] : EXTERNAL_NAV_ITEMS).map((item) => (
            <a
              key={item.href}
              href={item.href}
              className="topnav-link topnav-external"
              target="_blank"
              rel="noopener"
              title={item.title}
              data-testid={item.testId}
            >
              {item.label}
              <span aria-hidden="true"> ↗</span>
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ))}
        </nav>
        <div className="topbar-user">
          {user && (
            <span className="current-user" data-testid="current-user" data-role={user.role}>
              <span className="current-user-name">{user.username}</span>
              <span className={`role-badge role-${user.role ?? "none"}`}>{user.role ?? "no role"}</span>
            </span>
          )}
          <SignOutButton />
        </div>
      </header>
      <main className="content">{noRole ? <NoRole username={user?.username ?? ""} /> : <Outlet />}</main>
    </div>
  );
}
