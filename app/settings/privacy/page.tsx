import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/api/page-session";
import { withReturnTo } from "@/lib/api/return-to";
import { sharesEmailWithClients } from "@/lib/auth/account-settings";
import { pageMessage } from "@/lib/errors";
import { DoneNotice, ErrorAlert } from "../../form-parts";
import { SettingsNav } from "../settings-nav";

export const metadata: Metadata = { title: "Privacy" };

export default async function PrivacyPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (user === null) redirect(withReturnTo("/signin", "/settings/privacy"));
  const [shares, query] = await Promise.all([sharesEmailWithClients(user.id), searchParams]);
  return (
    <>
      <h1>Privacy</h1>
      <SettingsNav />
      <ErrorAlert message={pageMessage(query.error)} />
      <DoneNotice message={query.saved === "1" ? "Saved." : null} />
      <form method="post" action="/settings/privacy/save" className="card stack">
        <p className="muted">
          A client you approve learns the project you chose. Unless you allow it here, it does not learn who you are: someone who sent you a login link of their own
          would otherwise learn your email address.
        </p>
        <label className="check">
          <input type="checkbox" name="share_email" value="on" defaultChecked={shares} />
          <span>Let the applications I approve learn my email address</span>
        </label>
        <button type="submit">Save</button>
      </form>
    </>
  );
}
