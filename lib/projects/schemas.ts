import { PROJECT_NAME_MAX } from "../field-lengths";
import { requiredText } from "../text";

export const projectNameSchema = requiredText(PROJECT_NAME_MAX);
