// Pinterest API v5 answers as the reference documents them (Pin, Media upload, Media, Pin analytics,
// error model; the token answer of the authentication guide), with look-alike ids and tokens.
export const BOARD_ID = "549755885175";
export const PIN_ID = "813744226420795884";
export const MEDIA_ID = "5271391120391446529";
export const UPLOAD_URL = "https://pinterest-media-upload.s3-accelerate.amazonaws.com/";

export const token = {
  access_token: "pina_AMAZVWQWAAExamplePinterestToken",
  refresh_token: "pinr_AQAZVWQWAAExampleRefresh",
  response_type: "authorization_code",
  token_type: "bearer",
  expires_in: 2592000,
  refresh_token_expires_in: 5184000,
  scope: "boards:read,boards:write,pins:read,pins:write,user_accounts:read",
};

export const userAccount = {
  account_type: "BUSINESS",
  id: "516169651290379452",
  profile_image: "https://i.pinimg.com/280x280_RS/42/03/a5/4203a5b4f8d2d9b1c1f9e6a6e2d8b1a4.jpg",
  website_url: "https://www.example.com",
  username: "examplestudio",
  about: "",
  business_name: "Example Studio",
  board_count: 10,
  pin_count: 100,
  follower_count: 1000,
  following_count: 10,
  monthly_views: 1000,
};

/** pins/create's answer: the Pin. */
export const pin = (description: string | null, id = PIN_ID) => ({
  id,
  created_at: "2025-05-02T10:00:00",
  link: "https://www.example.com/launch",
  title: "Launch day",
  description,
  dominant_color: "#6E7874",
  alt_text: "A rocket on its pad",
  creative_type: "REGULAR",
  board_id: BOARD_ID,
  board_section_id: null,
  board_owner: { username: "examplestudio" },
  is_owner: true,
  media: {
    media_type: "image",
    images: {
      "150x150": { width: 150, height: 150, url: "https://i.pinimg.com/150x150/0d/f6/f1/example.jpg" },
    },
  },
  parent_pin_id: null,
  is_standard: true,
  has_been_promoted: false,
  pin_metrics: null,
});

export const pins = (items: unknown[]) => ({ items, bookmark: null });

/** media/create's answer: where to POST the bytes, with the storage's signed form fields. */
export const registered = {
  media_id: MEDIA_ID,
  media_type: "video",
  upload_url: UPLOAD_URL,
  upload_parameters: {
    "x-amz-date": "20250502T100000Z",
    "x-amz-signature": "fcd6309a6aaee213348666a72abed8b44552a43acb6b340e8e1b288d21a5fe92",
    "x-amz-security-token": "IQoJb3JpZ2luX2VjEJrExampleToken==",
    "x-amz-algorithm": "AWS4-HMAC-SHA256",
    key: `uploads/11/aa/22/3:video:203014033110991560:${MEDIA_ID}`,
    policy: "eyJleHBpcmF0aW9uIjoiMjAyNS0wNS0wMlQxMTowMDowMFoifQ==",
    "x-amz-credential": "ASIA6QZJ64OPIKV7FRVX/20250502/us-east-1/s3/aws4_request",
    "Content-Type": "multipart/form-data",
  },
};

export const mediaStatus = (status: string) => ({ media_id: MEDIA_ID, media_type: "video", status });

export const analytics = {
  all: {
    daily_metrics: [
      {
        data_status: "READY",
        date: "2025-05-01",
        metrics: { IMPRESSION: 240, SAVE: 20, PIN_CLICK: 37, OUTBOUND_CLICK: 20 },
      },
    ],
    summary_metrics: { IMPRESSION: 240, SAVE: 20, PIN_CLICK: 37, OUTBOUND_CLICK: 20 },
    lifetime_metrics: { TOTAL_COMMENTS: 2, TOTAL_REACTIONS: 12 },
  },
};

/** Pinterest's error model: a numeric code and a message. */
export const error = (code: number, message: string) => ({ code, message });
