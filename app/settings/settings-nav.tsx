import { config } from "@/lib/config";
import { NavLink } from "../nav-link";

/** Every settings page (and the webhooks', which live at /webhooks), side by side: the header keeps one link to them, so it fits a phone's row. The identity provider's, where one is set up. */
export function SettingsNav() {
  return (
    <nav aria-label="Settings" className="settings-nav">
      <NavLink href="/settings/tokens">Access tokens</NavLink>
      <NavLink href="/settings/resource-servers">Resource servers</NavLink>
      <NavLink href="/webhooks">Webhooks</NavLink>
      <NavLink href="/settings/passkeys">Passkeys</NavLink>
      <NavLink href="/settings/sessions">Sessions</NavLink>
      <NavLink href="/settings/password">Password</NavLink>
      <NavLink href="/settings/email">Email</NavLink>
      {config().oidc === null ? null : <NavLink href="/settings/identity">Identity provider</NavLink>}
      <NavLink href="/settings/privacy">Privacy</NavLink>
    </nav>
  );
}
