// @ts-check
// Run before npm start migrates the database (scripts/start.mjs) and before server.mjs forks a
// worker or listens: the master key (a development one is generated when it is missing) and every
// setting are checked once, and a bad one stops the process with its message. Nothing is
// migrated and nothing says "listening" under a configuration the app would refuse.
import path from "node:path";
import { ConfigError, configWarnings, parseConfig } from "./config.mjs";
import { logger } from "./logger.mjs";
import { MissingMasterKeyError, resolveMasterKey } from "./master-key.mjs";

/** @param {string} root the repository (the development master key is root/data/master.key) */
export function checkEnvironmentOrExit(root) {
  // Decided on NODE_ENV as the operator set it, before server.mjs forces production.
  const devMasterKeyFile = path.join(root, "data", "master.key");
  try {
    const { key, generated } = resolveMasterKey(process.env, devMasterKeyFile);
    if (generated) logger().warn({ file: devMasterKeyFile }, "generated a development master key; set MASTER_KEY in production");
    // Workers and the app inherit it, so a generated development key is generated once.
    process.env.MASTER_KEY = key;
    parseConfig(process.env);
    for (const warning of configWarnings(process.env)) logger().warn(warning);
  } catch (error) {
    if (!(error instanceof MissingMasterKeyError || error instanceof ConfigError)) throw error;
    logger().fatal(error.message);
    process.exit(1);
  }
}
