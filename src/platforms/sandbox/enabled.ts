/** The sandbox platform is on only when SANDBOX is exactly "true" (never in production). */
export const sandboxEnabled = (env: Pick<Env, "SANDBOX">) => env.SANDBOX === "true";
