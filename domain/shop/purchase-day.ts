/**
 * The purchase day (YYYY-MM-DD) of an instant, in the zone whose day starts
 * at 00:00 UTC+offset: daily purchase limits count per such day.
 */
export function purchaseDay(at: Date | string, utcOffsetMinutes: number): string {
  const shifted = new Date(new Date(at).getTime() + utcOffsetMinutes * 60_000);
  return shifted.toISOString().slice(0, 10);
}
