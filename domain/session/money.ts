// Money as the session and analytics count it: ten-thousandths of a currency's unit, as integers,
// so sums come out the same whatever the order and batching of the events (floating point sums
// would not): the session's revenue bound and a replayed count agree with the live ones exactly.
export const toTenThousandths = (value: number): number => Math.round(value * 10_000);
