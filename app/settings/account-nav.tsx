import { NavLink } from "../nav-link";

/** The account's own settings pages, linked from each other (the header links the first). */
export function AccountNav() {
  return (
    <nav aria-label="Account settings" className="account-nav">
      <NavLink href="/settings/sessions">Sessions</NavLink>
      <NavLink href="/settings/password">Password</NavLink>
      <NavLink href="/settings/privacy">Privacy</NavLink>
    </nav>
  );
}
