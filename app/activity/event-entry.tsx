import { ACTIVITY_LABELS, type ActivityKind } from "@/lib/activity/activity-kinds";
import type { ActivityEntry } from "@/lib/activity/list-activity";
import { clientSoftware } from "@/lib/links/client-software";
import { ReportedAddress } from "../address-parts";
import { LocalTime } from "../local-time";
import { Fact, actorOf, projectLink, roleLabel, tokenName, type ActivityScope } from "./activity-parts";

const isCredentialEvent = (kind: ActivityKind) => kind === "resource_server_created" || kind === "resource_server_revoked";
const isEndpointEvent = (kind: ActivityKind) => kind.startsWith("webhook_");

/**
 * Anything but a login: a link revoked, an access token or resource-server credential made or
 * revoked, a passkey added or removed, a sign-in through the identity provider or its link or
 * unlink, a link whose login is no longer kept, or a team's change (its name as it was then, the
 * member or invited address concerned, the role given).
 */
export function Entry({ entry, scope }: { entry: ActivityEntry; scope: ActivityScope }) {
  return (
    <li>
      <p className="entry-title">{ACTIVITY_LABELS[entry.kind]}</p>
      <dl className="facts">
        <Fact term="When">
          <LocalTime value={entry.occurredAt} />
        </Fact>
        <Fact term="Team">{entry.teamName}</Fact>
        <Fact term="Member">{entry.memberEmail}</Fact>
        <Fact term="Role">{roleLabel(entry.role)}</Fact>
        <Fact term="Project">{projectLink(entry.project)}</Fact>
        <Fact term="Application">{entry.sender}</Fact>
        <Fact term="Device">{entry.senderDevice}</Fact>
        <Fact term="Reported address">
          {entry.senderIp === null ? null : <ReportedAddress address={entry.senderIp} flagged={entry.addressMismatch} />}
        </Fact>
        <Fact term="Request came from">{entry.observedIp}</Fact>
        <Fact term="Client software">
          {entry.observedUserAgent === null ? null : <span title={entry.observedUserAgent}>{clientSoftware(entry.observedUserAgent) ?? entry.observedUserAgent}</span>}
        </Fact>
        {isCredentialEvent(entry.kind) ? (
          <Fact term="Credential">{tokenName(entry.tokenName, "/settings/resource-servers", scope)}</Fact>
        ) : isEndpointEvent(entry.kind) ? (
          <Fact term="Endpoint">{tokenName(entry.tokenName, "/webhooks", scope)}</Fact>
        ) : (
          <Fact term="Access token">{tokenName(entry.tokenName, "/settings/tokens", scope)}</Fact>
        )}
        <Fact term="Passkey">{entry.passkeyName}</Fact>
        <Fact term="Identity provider">{entry.provider}</Fact>
        <Fact term="By">{entry.decidedBy === null ? null : actorOf(entry, scope)}</Fact>
      </dl>
      {entry.iv === null ? null : (
        <details className="more">
          <summary>Details</summary>
          <dl className="facts stacked">
            <Fact term="Link iv">
              <code>{entry.iv}</code>
            </Fact>
          </dl>
        </details>
      )}
    </li>
  );
}
