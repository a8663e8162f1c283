// SKELETON (issue 9): the analytics endpoints (/api/v1/analytics).
import type { ApiEnv } from "../http/env";
import { createRouter } from "../http/router";

export const analyticsRouter = createRouter<ApiEnv>();
