export { processWide } from "./runtime/process-wide.mjs";
