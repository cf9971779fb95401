export const PRODUCT_LIMITS = {
  name: 200,
  desc: 10_000,
} as const;
