import { PROJECT_NAME_MAX } from "../field-limits";
import { requiredText } from "../text";

export const projectNameSchema = requiredText(PROJECT_NAME_MAX);
