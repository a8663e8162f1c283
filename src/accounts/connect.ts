// The end of a connect flow (POST /api/v1/accounts/connect): the delegation browser routes ran the
// single-use flow, the consent and the code exchange; here the platform's tokens are encrypted and the
// account is upserted by (workspace, platform, platform user id), and the redirect_url the browser
// lands on is built.
import type { ConnectTarget } from "../coordinator/flow";
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import { type CallbackError, withParams } from "../delegation/proof";
import { encryptSecret } from "../lib/crypto";
import type { Identity, PlatformToken } from "../platforms/types";
import { upsertAccount } from "./queries";

/**
 * Stores the connected account: its tokens AES-GCM encrypted (never plaintext in D1), its profile
 * (username and name are the platform's handle; the avatar is kept, as identities carry none yet).
 * The account's id, or null when the user is no longer a member of the workspace.
 */
export async function storeConnectedAccount(
  db: Database,
  encryptionKey: string | undefined,
  platform: Platform,
  target: ConnectTarget,
  token: PlatformToken,
  identity: Identity,
  now = Date.now(),
): Promise<number | null> {
  const [accessTokenEnc, refreshTokenEnc] = await Promise.all([
    encryptSecret(encryptionKey, token.accessToken),
    token.refreshToken ? encryptSecret(encryptionKey, token.refreshToken) : null,
  ]);
  const handle = identity.handle || identity.platform_id;
  const [rows] = await db.batch([
    upsertAccount(db, {
      workspaceId: target.workspaceId,
      userId: target.userId,
      platform,
      platformUserId: identity.platform_id,
      username: handle,
      name: handle,
      accessTokenEnc,
      refreshTokenEnc,
      tokenExpiresAt: token.expiresIn ? now + token.expiresIn * 1000 : null,
    }),
  ]);
  return rows[0]?.id ?? null;
}

/** redirect_url on success: `status=connected&account_id=…&platform=…`. */
export const connectedLocation = (redirectUrl: string, accountId: number, platform: string) =>
  withParams(redirectUrl, { status: "connected", account_id: String(accountId), platform });

/** redirect_url on failure: `error` and `error_description` (a connect has no application state). */
export const connectErrorLocation = (redirectUrl: string, error: CallbackError, description: string) =>
  withParams(redirectUrl, { error, error_description: description });
