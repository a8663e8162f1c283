// The way back to the application when a flow does not complete. A delegation's callback_url gets the
// application's `state` back; a connect has no application state.
import type { FlowTarget } from "../coordinator/flow";
import { type CallbackError, withParams } from "../coordinator/links";
import type { FlowOutcome } from "./outcome";

export const failed = (
  target: FlowTarget,
  error: CallbackError,
  description: string,
  cookies: string[] = [],
): FlowOutcome => ({
  kind: "failed",
  location: target.connect
    ? withParams(target.callbackUrl, { error, error_description: description })
    : withParams(target.callbackUrl, { error, error_description: description, state: target.state }),
  error,
  description,
  cookies,
});
