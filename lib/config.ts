import type { Env } from "./database/database-url";
import { ConfigError, parseConfig as parseEnv } from "../server/config.mjs";

// The service's settings, parsed once from the environment (server/config.mjs checks them,
// in plain JavaScript so that npm start can check them before it migrates). `lib/` takes its
// settings from here and never reads process.env itself.

export { ConfigError };

/** The settings, as server/config.mjs's parseConfig makes them: its one schema gives the type too. */
export type Config = ReturnType<typeof parseEnv>;

/** The configuration of `env`, or a ConfigError listing every bad value. */
export const parseConfig: (env: Env) => Config = parseEnv;

let loaded: Config | undefined;

export function config(): Config {
  loaded ??= parseConfig(process.env);
  return loaded;
}
