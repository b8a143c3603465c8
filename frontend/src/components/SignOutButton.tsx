import { useRef } from "react";
import { getCsrfToken } from "../api/client";

/**
 * A plain form POST to Django's /logout/ with the CSRF token, so sign-out works
 * the same as any server-rendered form (Django then redirects to /login/).
 */
export function SignOutButton() {
  const tokenField = useRef<HTMLInputElement>(null);
  return (
    <form
      method="post"
      action="/logout/"
      className="signout-form"
      onSubmit={() => {
        // The token may have rotated since render (e.g. after a login elsewhere).
        if (tokenField.current) tokenField.current.value = getCsrfToken() ?? "";
      }}
    >
      <input ref={tokenField} type="hidden" name="csrfmiddlewaretoken" defaultValue={getCsrfToken() ?? ""} />
      <button type="submit" className="button button-topbar" data-testid="sign-out">
        Sign out
      </button>
    </form>
  );
}
