// Media for a LinkedIn post: images through the Images API (initializeUpload, then one PUT of the bytes)
// and videos through the Videos API (initializeUpload with the size, one PUT per part LinkedIn names by
// byte range, finalizeUpload with the parts' ETags, then a bounded wait for processing). Bytes stream
// from R2 a range at a time; nothing here is visible on LinkedIn until a post references it, so every
// failure is at worst transient (see beforePublishing).

import { type DraftMedia, PlatformError } from "../types";
import { beforePublishing, type LinkedInApi } from "./api";
import { expect, imageUpload, videoStatus, videoUpload } from "./schemas";

/** How long to wait between looks at a video still processing (ms); then the attempt is retried. */
export const VIDEO_WAITS_MS = [2_000, 3_000, 5_000, 5_000, 5_000, 10_000];

export type MediaOptions = { videoWaitsMs?: readonly number[]; sleep?: (ms: number) => Promise<void> };

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function uploadImage(api: LinkedInApi, token: string, owner: string, media: DraftMedia) {
  try {
    const answer = await api.post("image upload", `${api.rest}/images?action=initializeUpload`, token, {
      initializeUploadRequest: { owner },
    });
    const { uploadUrl, image } = expect(imageUpload, answer.body, "image upload", "transient").value;
    await api.upload("image bytes", uploadUrl, token, (range) => media.open(range), {
      offset: 0,
      length: media.size,
    });
    return image;
  } catch (error) {
    throw beforePublishing(error);
  }
}

export async function uploadVideo(
  api: LinkedInApi,
  token: string,
  owner: string,
  media: DraftMedia,
  options: MediaOptions = {},
) {
  try {
    const answer = await api.post("video upload", `${api.rest}/videos?action=initializeUpload`, token, {
      initializeUploadRequest: {
        owner,
        fileSizeBytes: media.size,
        uploadCaptions: false,
        uploadThumbnail: false,
      },
    });
    const upload = expect(videoUpload, answer.body, "video upload", "transient").value;
    const uploadedPartIds: string[] = [];
    // One part at a time, in LinkedIn's order: each holds at most one part's bytes in flight.
    for (const [index, part] of upload.uploadInstructions.entries()) {
      if (part.lastByte < part.firstByte || part.lastByte >= media.size) {
        throw new PlatformError("LinkedIn video upload: a part lies outside the file", {
          kind: "transient",
          code: "invalid_response",
        });
      }
      const range = { offset: part.firstByte, length: part.lastByte - part.firstByte + 1 };
      const put = await api.upload(
        `video part ${index + 1}`,
        part.uploadUrl,
        token,
        (r) => media.open(r),
        range,
      );
      const etag = put.headers.get("etag");
      if (!etag) {
        throw new PlatformError("LinkedIn video upload: a part was stored without an ETag", {
          kind: "transient",
          code: "invalid_response",
        });
      }
      uploadedPartIds.push(etag);
    }
    await api.post("video finalize", `${api.rest}/videos?action=finalizeUpload`, token, {
      finalizeUploadRequest: { video: upload.video, uploadToken: upload.uploadToken, uploadedPartIds },
    });
    await processed(api, token, upload.video, options);
    return upload.video;
  } catch (error) {
    throw beforePublishing(error);
  }
}

/** Waits, a bounded number of times, for the video to be AVAILABLE: a post may not use it before. */
async function processed(api: LinkedInApi, token: string, video: string, options: MediaOptions) {
  const waits = options.videoWaitsMs ?? VIDEO_WAITS_MS;
  const sleep = options.sleep ?? sleepFor;
  const url = `${api.rest}/videos/${encodeURIComponent(video)}`;
  for (let look = 0; ; look++) {
    const { status } = expect(
      videoStatus,
      await api.get("video status", url, token),
      "video status",
      "transient",
    );
    if (status === "AVAILABLE") return;
    if (status === "PROCESSING_FAILED") {
      throw new PlatformError("LinkedIn could not process the video.", {
        kind: "permanent",
        code: "video_processing_failed",
      });
    }
    const wait = waits[look];
    if (wait === undefined) {
      throw new PlatformError(`LinkedIn is still processing the video (${status}); the attempt is retried.`, {
        kind: "transient",
        code: "video_processing",
      });
    }
    await sleep(wait);
  }
}
