import type { Config } from "../config";

// RFC 8628 §5.4 (remote phishing): in `confirm` mode anyone who holds an init's page URL sees the
// code and can approve it into their own project. A client that prints user_code says so at
// Create Init (user_code_shown); its init then needs the code typed, which only the person at
// that terminal knows, whatever INIT_CODE_CHECK says. A client of the bare specification does not
// print the code, so its inits keep the configured mode (issue 14).

export type CodeCheckMode = Config["initCodeCheck"];

export function codeCheckMode(configured: CodeCheckMode, userCodeShown: boolean): CodeCheckMode {
  return userCodeShown ? "enter" : configured;
}
