// SKELETON (issue 9): the cron's scheduled refresh of published rows' analytics.
export async function refreshAnalytics(_env: Env, _now: Date): Promise<void> {}
