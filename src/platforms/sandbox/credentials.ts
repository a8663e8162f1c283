/**
 * The OAuth client the sandbox adapters present, and the only one the emulators' consent and token
 * endpoints know: the app "registered" on every emulated platform.
 */
export const sandboxClient = (platform: string) => ({
  clientId: `sandbox-${platform}-client`,
  clientSecret: `sandbox-${platform}-secret`,
});
