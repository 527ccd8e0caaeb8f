// Length limits of the fields people and clients fill in: the schemas enforce them and the pages
// put them on their inputs, so the two cannot drift apart (docs/api.md, Create Init).

export const SENDER_MAX = 200;
export const SENDER_DEVICE_MAX = 200;
export const SENDER_OS_MAX = 100;
export const SENDER_IP_MAX = 45;
/** A client's purpose in its own words (OpenID CIBA's binding_message): one short sentence. */
export const BINDING_MESSAGE_MAX = 140;

/** RFC 5321's limit on a forward path. */
export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 1024;

export const PROJECT_NAME_MAX = 100;
export const TOKEN_NAME_MAX = 100;
export const TEAM_NAME_MAX = 100;

/** What the code field of the init page accepts: eight letters, typed with any dashes or spaces. */
export const USER_CODE_INPUT_MAX = 50;
export const PASSKEY_NAME_MAX = 100;
/** A passkey's answer as the browser sends it (JSON text): far more than an ES256, Ed25519 or RSA-2048 credential takes, within a form's 8 KiB. */
export const PASSKEY_RESPONSE_MAX = 6000;
