// Where a browser step of a flow sends the browser, as data: the routes (src/delegation/browser-routes.ts)
// turn each kind into a redirect or a page, and the tests read the rules off it.
import type { CallbackError } from "../coordinator/links";
import type { Channel } from "../platforms/types";

export type FlowOutcome =
  /** To the platform's consent page; the cookie binds the flow to this browser until the callback. */
  | { kind: "consent"; location: string; cookie: string }
  /** Back to a delegation's callback_url with the signed proof. */
  | { kind: "proof"; location: string; cookies: string[] }
  /** Back to a connect's redirect_url with `status=connected`: the account is stored. */
  | { kind: "connected"; location: string; accountId: number; cookies: string[] }
  /** Back to the application with `error` and `error_description` (and a delegation's `state`). */
  | { kind: "failed"; location: string; error: CallbackError; description: string; cookies: string[] }
  /** The page where the user picks a channel (src/accounts/channels.ts); `flow` is the signed flow id. */
  | { kind: "choose_channel"; flow: string; platformLabel: string; channels: Channel[] }
  /** Nowhere to send the browser (an unknown, forged or spent link): an error page. */
  | { kind: "invalid_link"; detail: string };
