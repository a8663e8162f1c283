// The channel step of a connect: some platforms' logins are not where posts go (a Facebook user
// publishes as one of their Pages, a LinkedIn member as themselves or an organisation they administer,
// a Google account owns several YouTube channels). After the consent, the adapter lists the channels;
// with exactly one the account is stored at once, with several the user picks on this page. What the
// pick needs (the tokens, the channels) waits sealed in the flow's Coordinator instance
// (src/coordinator/choice.ts), never in the page.
import { decryptSecret, encryptSecret } from "../lib/crypto";
import { escapeHtml, htmlPage } from "../lib/html";
import type { Channel, Identity, PlatformToken } from "../platforms/types";

/** A connect waiting for its channel. */
export type PendingConnect = { token: PlatformToken; identity: Identity; channels: Channel[] };

/** At most this many channels are offered (a page of Pages is plenty to pick from). */
export const MAX_CHANNELS = 100;

export const sealChoice = (encryptionKey: string | undefined, pending: PendingConnect) =>
  encryptSecret(encryptionKey, JSON.stringify(pending));

export async function openChoice(
  encryptionKey: string | undefined,
  sealed: string,
): Promise<PendingConnect | null> {
  try {
    return JSON.parse(await decryptSecret(encryptionKey, sealed)) as PendingConnect;
  } catch {
    // Sealed under a key that has since been rotated: the user starts again.
    return null;
  }
}

/**
 * The page the user picks a channel on: one POST form back to the callback path (where the flow's
 * browser cookie is sent), one button per channel.
 */
export function channelPage(action: string, flowId: string, platformLabel: string, channels: Channel[]) {
  const buttons = channels
    .slice(0, MAX_CHANNELS)
    .map(
      (channel) =>
        `<li><button type="submit" name="channel" value="${escapeHtml(channel.id)}">${escapeHtml(channel.name)}</button> <span class="muted">${escapeHtml(channel.kind)}${channel.handle && channel.handle !== channel.name ? ` · ${escapeHtml(channel.handle)}` : ""}</span></li>`,
    )
    .join("\n");
  return htmlPage({
    title: `Choose where to publish on ${platformLabel}`,
    hasForm: true,
    body: `<h1>Choose where to publish on ${escapeHtml(platformLabel)}</h1>
<p>Posts will be published as the one you pick. To publish as another, connect again.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="flow" value="${escapeHtml(flowId)}">
<ul class="channels">
${buttons}
</ul>
</form>`,
  });
}
