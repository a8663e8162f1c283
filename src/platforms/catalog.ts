// Every platform's spec, by name.
import type { Platform } from "../db/enums";
import { facebook } from "./facebook";
import { instagram } from "./instagram";
import { linkedin } from "./linkedin";
import { pinterest } from "./pinterest";
import { threads } from "./threads";
import { tiktok } from "./tiktok";
import { twitter } from "./twitter";
import type { PlatformSpec } from "./types";
import { youtube } from "./youtube";

export const SPECS: Record<Platform, PlatformSpec> = {
  tiktok,
  instagram,
  twitter,
  linkedin,
  youtube,
  facebook,
  pinterest,
  threads,
};

export const isPlatform = (name: string): name is Platform => Object.hasOwn(SPECS, name);
