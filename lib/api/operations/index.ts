import type { Operation } from "../operation";
import { requestPasswordResetOperation, resendVerificationOperation, resetPasswordOperation, verifyEmailOperation } from "./account-recovery";
import { changePasswordOperation, savePrivacyOperation, signOutOtherSessionsOperation, signOutSessionOperation } from "./account-settings";
import { approveInitOperation } from "./approve-init";
import { createAccessTokenOperation } from "./create-access-token";
import { createInitOperation } from "./create-init";
import { createProjectLinkOperation } from "./create-project-link";
import { approveLinkOperation, denyLinkOperation } from "./decide-link-approval";
import { denyInitOperation } from "./deny-init";
import { enterUserCodeOperation } from "./enter-user-code";
import { deviceAuthorizationOperation } from "./device-authorization";
import { getAuthorizationServerMetadataOperation } from "./get-authorization-server-metadata";
import { getProtectedResourceMetadataOperation } from "./get-protected-resource-metadata";
import { getHealthOperation } from "./get-health";
import { getInitStatusOperation } from "./get-init-status";
import { getJwksOperation } from "./get-jwks";
import { getLinkedProjectOperation } from "./get-linked-project";
import { listTokenProjectsOperation } from "./list-token-projects";
import { getLiveOperation } from "./get-live";
import { getMetricsOperation } from "./get-metrics";
import { getOpenApiDocumentOperation } from "./get-openapi-document";
import { introspectTokenOperation } from "./introspect-token";
import { authorizeOperation } from "./authorize";
import { oidcCallbackOperation, startOidcLinkOperation, startOidcSignInOperation, unlinkIdentityOperation } from "./oidc";
import { addPasskeyOperation } from "./add-passkey";
import { passkeyRegistrationOptionsOperation, passkeySignInOptionsOperation, passkeyStepUpOptionsOperation } from "./passkey-options";
import { removePasskeyOperation } from "./remove-passkey";
import { renameProjectOperation } from "./rename-project";
import { reportApprovalOperation } from "./report-approval";
import { createResourceServerOperation, revokeResourceServerOperation } from "./resource-servers";
import { revokeAccessTokenOperation } from "./revoke-access-token";
import { revokeLinkOperation } from "./revoke-link";
import { revokeTokenOperation } from "./revoke-token";
import { signInOperation, signUpOperation } from "./sign-in-and-sign-up";
import { setPasskeyApprovalsOperation } from "./set-passkey-approvals";
import { signInWithPasskeyOperation } from "./sign-in-with-passkey";
import { signOutOperation } from "./sign-out";
import { streamInitEventsOperation } from "./stream-init-events";
import { tokenOperation } from "./token";
import { unknownApiPathOperation } from "./unknown-api-path";

import {
  acceptInvitationOperation,
  changeRoleOperation,
  createTeamOperation,
  deleteTeamOperation,
  inviteMemberOperation,
  moveProjectOperation,
  removeMemberOperation,
  renameTeamOperation,
  revokeInvitationOperation,
} from "./teams";
import {
  createEndpointOperation,
  deleteEndpointOperation,
  disableEndpointOperation,
  enableEndpointOperation,
  resendMessageOperation,
  rotateEndpointSecretOperation,
  sendTestEventOperation,
} from "./webhooks";

// Every operation the service serves, in the order the reference lists the API's. Its route
// files (app/**/route.ts) each serve one of them.
export const OPERATIONS: readonly Operation[] = [
  createInitOperation,
  getInitStatusOperation,
  streamInitEventsOperation,
  createProjectLinkOperation,
  getLinkedProjectOperation,
  listTokenProjectsOperation,
  getAuthorizationServerMetadataOperation,
  getProtectedResourceMetadataOperation,
  deviceAuthorizationOperation,
  tokenOperation,
  revokeTokenOperation,
  introspectTokenOperation,
  getJwksOperation,
  getHealthOperation,
  getLiveOperation,
  getOpenApiDocumentOperation,
  getMetricsOperation,
  unknownApiPathOperation,
  signUpOperation,
  signInOperation,
  signOutOperation,
  requestPasswordResetOperation,
  resetPasswordOperation,
  verifyEmailOperation,
  resendVerificationOperation,
  renameProjectOperation,
  approveInitOperation,
  denyInitOperation,
  enterUserCodeOperation,
  createAccessTokenOperation,
  revokeAccessTokenOperation,
  createResourceServerOperation,
  revokeResourceServerOperation,
  revokeLinkOperation,
  approveLinkOperation,
  denyLinkOperation,
  signOutSessionOperation,
  signOutOtherSessionsOperation,
  changePasswordOperation,
  savePrivacyOperation,
  passkeySignInOptionsOperation,
  signInWithPasskeyOperation,
  authorizeOperation,
  startOidcSignInOperation,
  oidcCallbackOperation,
  passkeyRegistrationOptionsOperation,
  addPasskeyOperation,
  removePasskeyOperation,
  setPasskeyApprovalsOperation,
  passkeyStepUpOptionsOperation,
  reportApprovalOperation,
  startOidcLinkOperation,
  unlinkIdentityOperation,
  createTeamOperation,
  renameTeamOperation,
  deleteTeamOperation,
  inviteMemberOperation,
  revokeInvitationOperation,
  changeRoleOperation,
  removeMemberOperation,
  acceptInvitationOperation,
  moveProjectOperation,
  createEndpointOperation,
  rotateEndpointSecretOperation,
  disableEndpointOperation,
  enableEndpointOperation,
  deleteEndpointOperation,
  sendTestEventOperation,
  resendMessageOperation,
];
