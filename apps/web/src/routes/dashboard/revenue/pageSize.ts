/** Page size of the payments, earnings and lifetime tables (docs/website.md, Lists, refresh and copying). */
export const REVENUE_PAGE_SIZE = 10;
