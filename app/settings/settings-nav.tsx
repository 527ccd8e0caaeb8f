import { NavLink } from "../nav-link";

/** The settings pages, side by side: the header keeps one link to them, so it fits a phone's row. */
export function SettingsNav() {
  return (
    <nav aria-label="Settings" className="settings-nav">
      <NavLink href="/settings/tokens">Access tokens</NavLink>
      <NavLink href="/settings/passkeys">Passkeys</NavLink>
    </nav>
  );
}
