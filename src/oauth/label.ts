import { isPlatform, SPECS } from "../platforms/catalog";

/** A platform's name as users read it in the error descriptions and on the channel page. */
export const platformLabel = (platform: string) => (isPlatform(platform) ? SPECS[platform].label : platform);
