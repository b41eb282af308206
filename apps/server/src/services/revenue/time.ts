// The calendar rules live in @lodestone/domain (calendar.ts). This re-export only keeps
// api/revenue/revenue.api.test.ts compiling until that file (owned by another part of issue 18)
// imports them from @lodestone/domain; then delete this file.
export { addDays, daysBetween } from '@lodestone/domain';
