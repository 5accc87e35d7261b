/**
 * What a record looks like for each kind of resource: a video has views and a duration, a job
 * has a company, an ad has a page, a listing has a price. `kindOf` maps an endpoint to its kind.
 */
import type { Rng } from "./rng.js";

export interface RecordSource {
  platform: string;
  resource: string;
  rng: Rng;
  id: string;
  origin: string;
  publishedAt: string;
  author: Record<string, unknown>;
  sentence(minWords?: number, maxWords?: number): string;
  title(): string;
}

/** The kind-specific part of a record; fields it leaves out come from the source. */
export interface RecordParts {
  type: string;
  url?: string;
  author?: Record<string, unknown>;
  text: string | null;
  metrics: Record<string, unknown>;
  media: Record<string, unknown> | unknown[];
  published_at?: string | null;
  [extra: string]: unknown;
}

type Kind = (source: RecordSource) => RecordParts;

const COMPANIES = ["Northwind", "Bluepeak Labs", "Harbor & Co", "Lumen Foods", "Atlas Mobility"];
const CITIES = ["Lisbon", "Austin", "Osaka", "Nairobi", "Toronto", "Lyon", "Melbourne"];
const CURRENCIES = ["USD", "EUR", "GBP"];

function image(source: RecordSource, name = "image"): Record<string, unknown> {
  return { type: "image", url: `${source.origin}/media/${source.id}/${name}.jpg` };
}

function video(source: RecordSource, minSeconds: number, maxSeconds: number): RecordParts {
  const { rng } = source;
  const views = rng.int(100, 5_000_000);
  return {
    type: "video",
    url: `${source.origin}/watch/${source.id}`,
    title: source.title(),
    text: source.sentence(),
    metrics: {
      views,
      likes: Math.floor(views * rng.next() * 0.1),
      comments: Math.floor(views * rng.next() * 0.01),
      shares: Math.floor(views * rng.next() * 0.005),
    },
    media: {
      type: "video",
      duration_seconds: rng.int(minSeconds, maxSeconds),
      width: 1080,
      height: maxSeconds <= 180 ? 1920 : 608,
      thumbnail_url: `${source.origin}/media/${source.id}/thumb.jpg`,
      video_url: `${source.origin}/media/${source.id}/video.mp4`,
    },
  };
}

function price(rng: Rng): Record<string, unknown> {
  return { amount: rng.int(5, 2000) + rng.int(0, 99) / 100, currency: rng.pick(CURRENCIES) };
}

const post: Kind = (source) => {
  const { rng } = source;
  const forum = source.platform === "forum-network";
  return {
    type: "post",
    url: `${source.origin}/${forum ? "r/general/comments" : "p"}/${source.id}`,
    ...(forum ? { title: source.title(), community: `${rng.pick(CITIES).toLowerCase()}` } : {}),
    text: source.sentence(8, 30),
    metrics: { likes: rng.int(0, 50_000), comments: rng.int(0, 2_000), shares: rng.int(0, 900) },
    media: rng.chance(0.6) ? [image(source)] : [],
  };
};

const comment: Kind = (source) => ({
  type: "comment",
  url: `${source.origin}/comment/${source.id}`,
  text: source.sentence(3, 20),
  metrics: { likes: source.rng.int(0, 5_000), replies: source.rng.int(0, 80) },
  media: [],
  post_url: `${source.origin}/p/${source.rng.hex(12)}`,
});

const profile: Kind = (source) => ({
  type: "profile",
  url: source.author.url as string,
  text: source.sentence(4, 14),
  metrics: {
    followers: source.rng.int(0, 2_000_000),
    following: source.rng.int(0, 3_000),
    posts: source.rng.int(0, 8_000),
  },
  media: { avatar: image(source, "avatar") },
  published_at: null,
});

const followerCount: Kind = (source) => ({
  ...profile(source),
  type: "follower_count",
  text: null,
});

const page: Kind = (source) => ({
  type: "page",
  url: `${source.origin}/pages/${source.id}`,
  name: source.title(),
  category: source.rng.pick(["Business", "Media", "Community", "Brand"]),
  text: source.sentence(),
  metrics: { followers: source.rng.int(0, 5_000_000), likes: source.rng.int(0, 4_000_000) },
  media: { avatar: image(source, "avatar") },
  published_at: null,
});

const ad: Kind = (source) => {
  const { rng } = source;
  const pageName = rng.pick(COMPANIES);
  const pageId = String(rng.int(100_000_000, 999_999_999));
  const impressions = rng.int(1_000, 1_000_000);
  return {
    type: "ad",
    url: `${source.origin}/ads/library/?id=${source.id}`,
    author: { id: pageId, name: pageName, url: `${source.origin}/${pageId}` },
    page: { id: pageId, name: pageName, url: `${source.origin}/${pageId}` },
    status: rng.pick(["active", "inactive"]),
    countries: [rng.pick(["US", "GB", "DE", "FR", "BR"])],
    text: source.sentence(6, 24),
    metrics: { impressions_lower: impressions, impressions_upper: impressions * 2 },
    media: [rng.chance(0.5) ? image(source, "creative") : { ...video(source, 6, 60).media }],
  };
};

const advertiser: Kind = (source) => ({ ...page(source), type: "advertiser" });

const listing: Kind = (source) => ({
  type: "listing",
  url: `${source.origin}/marketplace/item/${source.id}`,
  title: source.title(),
  price: price(source.rng),
  condition: source.rng.pick(["new", "used_like_new", "used_good"]),
  location: { city: source.rng.pick(CITIES) },
  text: source.sentence(),
  metrics: { saves: source.rng.int(0, 300) },
  media: [image(source), image(source, "detail")],
});

const location: Kind = (source) => ({
  type: "location",
  url: `${source.origin}/marketplace/${source.id}`,
  name: source.rng.pick(CITIES),
  latitude: source.rng.int(-900_000, 900_000) / 10_000,
  longitude: source.rng.int(-1_800_000, 1_800_000) / 10_000,
  text: null,
  metrics: {},
  media: [],
  published_at: null,
});

const job: Kind = (source) => {
  const company = source.rng.pick(COMPANIES);
  return {
    type: "job",
    url: `${source.origin}/jobs/view/${source.id}`,
    title: source.title(),
    company: { name: company, url: `${source.origin}/company/${source.rng.hex(8)}` },
    author: { name: company },
    location: source.rng.pick(CITIES),
    employment_type: source.rng.pick(["full_time", "part_time", "contract"]),
    text: source.sentence(12, 40),
    metrics: { applicants: source.rng.int(0, 500) },
    media: [],
  };
};

const company: Kind = (source) => {
  const name = source.rng.pick(COMPANIES);
  return {
    type: "company",
    url: `${source.origin}/company/${source.id}`,
    name,
    author: { name },
    industry: source.rng.pick(["Software", "Retail", "Food", "Transport"]),
    headquarters: source.rng.pick(CITIES),
    text: source.sentence(10, 30),
    metrics: { followers: source.rng.int(0, 3_000_000), employees: source.rng.int(1, 50_000) },
    media: { logo: image(source, "logo") },
    published_at: null,
  };
};

const pin: Kind = (source) => ({
  type: "pin",
  url: `${source.origin}/pin/${source.id}`,
  title: source.title(),
  board: source.title(),
  text: source.sentence(),
  metrics: { saves: source.rng.int(0, 90_000), comments: source.rng.int(0, 400) },
  media: [image(source)],
});

const hashtag: Kind = (source) => {
  const name = source.title().toLowerCase().replaceAll(" ", "");
  return {
    type: "hashtag",
    url: `${source.origin}/tag/${name}`,
    name,
    text: null,
    metrics: { videos: source.rng.int(10, 2_000_000), views: source.rng.int(1_000, 900_000_000) },
    media: [],
    published_at: null,
  };
};

const product: Kind = (source) => ({
  type: "product",
  url: `${source.origin}/shop/product/${source.id}`,
  title: source.title(),
  price: price(source.rng),
  seller: { name: source.rng.pick(COMPANIES) },
  text: source.sentence(8, 24),
  metrics: {
    sold: source.rng.int(0, 100_000),
    rating: source.rng.int(10, 50) / 10,
    reviews: source.rng.int(0, 20_000),
  },
  media: [image(source), image(source, "detail")],
});

const review: Kind = (source) => ({
  type: "review",
  url: `${source.origin}/shop/review/${source.id}`,
  rating: source.rng.int(1, 5),
  text: source.sentence(4, 30),
  metrics: { helpful: source.rng.int(0, 300) },
  media: source.rng.chance(0.2) ? [image(source)] : [],
});

const channel: Kind = (source) => ({
  type: "channel",
  url: `${source.origin}/channel/${source.id}`,
  name: source.title(),
  text: source.sentence(8, 24),
  metrics: {
    subscribers: source.rng.int(0, 20_000_000),
    videos: source.rng.int(1, 5_000),
    views: source.rng.int(1_000, 2_000_000_000),
  },
  media: { avatar: image(source, "avatar"), banner: image(source, "banner") },
});

const transcript: Kind = (source) => {
  const segments = Array.from({ length: 3 }, (_, position) => ({
    start_seconds: position * 7,
    duration_seconds: 7,
    text: source.sentence(5, 12),
  }));
  return {
    type: "transcript",
    url: `${source.origin}/watch/${source.id}`,
    language: "en",
    segments,
    text: segments.map((segment) => segment.text).join(" "),
    metrics: {},
    media: { type: "video", duration_seconds: segments.length * 7 },
  };
};

const longVideo: Kind = (source) => video(source, 60, 3_600);
const shortVideo: Kind = (source) => video(source, 5, 180);

const BY_RESOURCE: Record<string, Kind> = {
  comments: comment,
  pages: page,
  ad,
  "company-ads": ad,
  "company-search": advertiser,
  item: listing,
  "location-search": location,
  "followers-count": followerCount,
  reels: shortVideo,
  shorts: shortVideo,
  companies: company,
  jobs: job,
  profiles: profile,
  pins: pin,
  "user-pins": pin,
  hashtags: hashtag,
  product,
  products: product,
  "user-showcase": product,
  "product-reviews": review,
  channels: channel,
  transcripts: transcript,
  videos: longVideo,
  "channel-videos": longVideo,
};

/** The kind of a platform's generic resources (`search`, `posts`...) when it is not a post. */
const BY_PLATFORM: Record<string, Kind> = {
  "social-network-ad-library": ad,
  "social-network-marketplace": listing,
  "pin-network": pin,
  "short-video-network": shortVideo,
  "short-video-shop": product,
  "video-network": longVideo,
};

export function kindOf(platform: string, resource: string): Kind {
  if (platform === "short-video-network" && resource === "videos") return shortVideo;
  return BY_RESOURCE[resource] ?? BY_PLATFORM[platform] ?? post;
}
