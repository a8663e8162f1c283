// SKELETON (issue 9): the sandbox platform's storage, one Durable Object instance per platform. The
// helper building the sandbox's publishing replaces this body.
import { DurableObject } from "cloudflare:workers";

export class SandboxStore extends DurableObject<Env> {}
