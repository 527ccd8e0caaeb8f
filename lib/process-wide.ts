export { processWide } from "../server/process-wide.mjs";
