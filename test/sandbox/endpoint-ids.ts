/** The 51 endpoint ids of the interface document's platform table. */
const TABLE: Record<string, string[]> = {
  "social-network": ["comments", "pages", "posts"],
  "social-network-ad-library": ["ad", "company-ads", "company-search", "search"],
  "social-network-marketplace": ["item", "location-search", "search"],
  "photo-network": ["comments", "followers-count", "posts", "reels", "search"],
  "professional-network": ["companies", "jobs", "posts", "profiles"],
  "pin-network": ["pins", "profiles", "search", "user-pins"],
  "forum-network": ["comments", "posts", "search", "community-posts"],
  "thread-network": ["posts", "profiles", "user-posts"],
  "short-video-network": ["comments", "hashtags", "profiles", "search", "videos"],
  "short-video-shop": ["product", "product-reviews", "products", "search", "user-showcase"],
  "microblog-network": ["posts", "profiles", "search", "user-posts"],
  "video-network": [
    "channel-videos",
    "channels",
    "comments",
    "search",
    "shorts",
    "transcripts",
    "videos",
  ],
};

export const ALL_ENDPOINT_IDS = Object.entries(TABLE).flatMap(([platform, resources]) =>
  resources.map((resource) => `${platform}/${resource}`),
);
