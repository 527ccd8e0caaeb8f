import { config, ConfigError } from "./config";

/** Checks the configuration when the server starts; a bad value stops it with a clear message. */
export function checkConfigOrExit(): void {
  try {
    config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
