// LinkedIn's documented example answers (learn.microsoft.com › LinkedIn › Community Management: Posts,
// Images, Videos, Comments, Social Metadata, Organization Access Control, Organization Lookup, Share
// Statistics, Member Post Statistics; Authentication: error codes), with look-alike ids and tokens.

export const PERSON_SUB = "782bbtaQ";
export const PERSON = `urn:li:person:${PERSON_SUB}`;
export const ORG_ID = "2414183";
export const ORG = `urn:li:organization:${ORG_ID}`;
export const SHARE = "urn:li:share:6844785523593134080";
export const UGC_POST = "urn:li:ugcPost:6844785523593134081";
export const IMAGE = "urn:li:image:C4E10AQFoyyAjHPMQuQ";
export const VIDEO = "urn:li:video:C5F10AQGKQg_6y2a4sQ";
export const ACCESS_TOKEN = "AQUvlL_DYEzvT2wz1QJiEPeLioeA";

/** Authorization Code Flow, programmatic refresh tokens (approved partners get a refresh token). */
export const token = {
  access_token: ACCESS_TOKEN,
  expires_in: 5184000,
  refresh_token: "AQWAft_WjYZKwuWXLC5hQlghgTam-tuT8CvFej9-XxGyqeER_7jTr8Hmji",
  refresh_token_expires_in: 31536000,
  scope: "openid,profile,w_member_social,w_organization_social,r_organization_social,rw_organization_admin",
  token_type: "Bearer",
};

/** OpenID Connect userinfo. */
export const userinfo = {
  sub: PERSON_SUB,
  email_verified: true,
  name: "John Doe",
  locale: { country: "US", language: "en" },
  given_name: "John",
  family_name: "Doe",
  picture: "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/",
};

/** organizationAcls?q=roleAssignee */
export const acls = {
  paging: { start: 0, count: 100, links: [], total: 1 },
  elements: [{ roleAssignee: PERSON, state: "APPROVED", role: "ADMINISTRATOR", organization: ORG }],
};

const LOGO_ASSET = "C4D0BAQGiBzIk8cHw0g";

/** organizations?ids=List(…) (BATCH_GET on administered organizations). */
export const organizations = {
  results: {
    [ORG_ID]: {
      vanityName: "devtestco",
      localizedName: "DevTestCo",
      logoV2: {
        cropped: `urn:li:digitalmediaAsset:${LOGO_ASSET}`,
        original: `urn:li:digitalmediaAsset:${LOGO_ASSET}`,
        cropInfo: { x: 0, width: 0, y: 0, height: 0 },
      },
      primaryOrganizationType: "NONE",
      id: Number(ORG_ID),
    },
  },
  statuses: { [ORG_ID]: 200 },
  errors: {},
};

export const LOGO_URL =
  "https://media.licdn.com/dms/image/C4D0BAQGiBzIk8cHw0g/company-logo_400_400/0/1519856215226?e=1&v=beta&t=x";

/** images?ids=List(…) */
export const logoImages = {
  results: {
    [`urn:li:image:${LOGO_ASSET}`]: {
      owner: ORG,
      status: "AVAILABLE",
      downloadUrl: LOGO_URL,
      id: `urn:li:image:${LOGO_ASSET}`,
    },
  },
  statuses: { [`urn:li:image:${LOGO_ASSET}`]: 200 },
  errors: {},
};

/** images?action=initializeUpload */
export const imageUpload = (image = IMAGE) => ({
  value: {
    uploadUrlExpiresAt: 1650567510704,
    uploadUrl: `https://www.linkedin.com/dms-uploads/${image.slice(13)}/uploaded-image/0?ca=vector_ads&cn=uploads&m=AQJbrN86Zm265gAAAYBJ6obmb9jHkBBzhkTe1ieqmagmkFpVuX1qk1Mp9Q&app=201094746&sync=0&v=beta&ut=2yyr4_7ldnQ5s1`,
    image,
  },
});

/** videos?action=initializeUpload: LinkedIn cuts the file into parts (4 MiB in production). */
export function videoUpload(size: number, partSize: number) {
  const uploadInstructions = [];
  for (let first = 0, part = 0; first < size; first += partSize, part++) {
    uploadInstructions.push({
      uploadUrl: `https://www.linkedin.com/dms-uploads/C5F10AQGKQg_6y2a4sQ/uploadedVideo/${part}?sau=aHR0cHM6Ly93d3cubGlua2VkaW4uY29tL2FtYnJ5Lz94LWxpLWFtYnJ5LWVw`,
      firstByte: first,
      lastByte: Math.min(size, first + partSize) - 1,
    });
  }
  return { value: { uploadUrlsExpireAt: 1651703858145, video: VIDEO, uploadInstructions, uploadToken: "" } };
}

export const etag = (part: number) => `/ambry-video/signedId/AQHqRU_OrWMn5gAAAYBO5zZ${part}`;

/** images/{urn} (Images API): WAITING_UPLOAD, PROCESSING, AVAILABLE or PROCESSING_FAILED. */
export const imageStatus = (status: string, image = IMAGE) => ({
  owner: ORG,
  id: image,
  status,
  ...(status === "AVAILABLE"
    ? {
        downloadUrl: `https://media.licdn.com/dms/image/${image.slice(13)}/image-shrink_1280/0?e=1651190400&v=beta`,
        downloadUrlExpiresAt: 1651190400000,
      }
    : {}),
});

/** videos/{urn} */
export const videoStatus = (status: string) => ({
  owner: ORG,
  duration: 6000,
  id: VIDEO,
  aspectRatioWidth: 16,
  aspectRatioHeight: 9,
  status,
});

/** posts?q=author */
export const postsByAuthor = (commentary: string, id = SHARE) => ({
  paging: { start: 0, count: 50, links: [], total: 2 },
  elements: [
    {
      isReshareDisabledByAuthor: false,
      createdAt: 1647034300000,
      lifecycleState: "PUBLISHED",
      lastModifiedAt: 1647034300000,
      visibility: "PUBLIC",
      publishedAt: 1647034300000,
      author: ORG,
      id: "urn:li:share:6907025386523500544",
      distribution: { feedDistribution: "MAIN_FEED", thirdPartyDistributionChannels: [] },
      commentary: "An older post",
      lifecycleStateInfo: { isEditedByAuthor: false },
    },
    {
      isReshareDisabledByAuthor: false,
      createdAt: 1647034400000,
      lifecycleState: "PUBLISHED",
      lastModifiedAt: 1647034400000,
      visibility: "PUBLIC",
      publishedAt: 1647034400000,
      author: ORG,
      id,
      distribution: { feedDistribution: "MAIN_FEED", thirdPartyDistributionChannels: [] },
      commentary,
      lifecycleStateInfo: { isEditedByAuthor: false },
    },
  ],
});

/** One comment of socialActions/{urn}/comments. */
export const comment = (
  id: string,
  text: string,
  actor = "urn:li:person:A1b2C3d4",
  time = 1582160678569,
) => ({
  actor,
  commentUrn: `urn:li:comment:(urn:li:activity:6636062862760562688,${id})`,
  created: { actor, time },
  entity: "urn:li:activity:6636062862760562688",
  id,
  lastModified: { actor, time },
  message: { attributes: [], text },
  object: "urn:li:activity:6636062862760562688",
});

export const commentsPage = (elements: unknown[], start: number, total: number) => ({
  paging: { start, count: 50, links: [], total },
  elements,
});

/** socialMetadata/{urn} */
export const socialMetadata = {
  reactionSummaries: {
    LIKE: { reactionType: "LIKE", count: 7 },
    PRAISE: { reactionType: "PRAISE", count: 2 },
    EMPATHY: { reactionType: "EMPATHY", count: 1 },
  },
  commentsState: "OPEN",
  commentSummary: { count: 4, topLevelCount: 3 },
  entity: SHARE,
};

/** organizationalEntityShareStatistics?q=organizationalEntity&shares=List(…) */
export const shareStatistics = {
  paging: { count: 10, start: 0, links: [] },
  elements: [
    {
      totalShareStatistics: {
        uniqueImpressionsCount: 400,
        shareCount: 3,
        engagement: 0.0215,
        clickCount: 5,
        likeCount: 9,
        impressionCount: 650,
        commentCount: 4,
      },
      share: SHARE,
      organizationalEntity: ORG,
    },
  ],
};

/** memberCreatorPostAnalytics?q=entity, aggregation TOTAL. */
export const memberMetric = (count: number, metric: string) => ({
  paging: { start: 0, count: 10, links: [] },
  elements: [
    {
      count,
      metricType: {
        "com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1": metric,
      },
      targetEntity: { share: SHARE },
    },
  ],
});

/** Error answers (Authentication › error handling; Posts API; rate limits). */
export const errors = {
  /** A sunset LinkedIn-Version (Versioning › "426 Upgrade Required" when a version is no longer served). */
  sunsetVersion: {
    status: 426,
    code: "NONEXISTENT_VERSION",
    message: "Requested version 202401 is not active",
  },
  expired: {
    serviceErrorCode: 65601,
    code: "EXPIRED_ACCESS_TOKEN",
    message: "The token used in the request has expired",
    status: 401,
  },
  revoked: {
    serviceErrorCode: 65600,
    code: "REVOKED_ACCESS_TOKEN",
    message: "The token used in the request has been revoked by the user",
    status: 401,
  },
  duplicate: {
    errorDetailType: "com.linkedin.common.error.BadRequest",
    message:
      "com.linkedin.content.common.exception.BadRequestResponseException: Content is a duplicate of urn:li:share:7141138937766391808",
    errorDetails: {
      inputErrors: [{ description: "Duplicate post is detected", input: {}, code: "DUPLICATE_POST" }],
    },
    status: 422,
  },
  throttled: {
    status: 429,
    serviceErrorCode: 101,
    code: "TOO_MANY_REQUESTS",
    message: "Resource level throttle APPLICATION DAY limit for calls to this resource is reached.",
  },
  denied: {
    status: 403,
    serviceErrorCode: 100,
    code: "ACCESS_DENIED",
    message: "Not enough permissions to access: partnerApiPostsExternal.FINDER-author.20260501",
  },
  server: { message: "Internal Server Error", status: 500 },
};
