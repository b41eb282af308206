/** Page size of the payments, earnings and lifetime tables (spec 9). */
export const REVENUE_PAGE_SIZE = 10;
