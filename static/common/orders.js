// What an order's status (the server's word, apps/orders/models.py OrderStatus) means to both
// apps. Pure, unit-tested (tests/js/orders.test.js).

/** The statuses of an order whose payment was captured: only these are ever called "paid". */
export const PAID_STATUSES = Object.freeze(["paid", "confirmed", "preparing", "ready", "completed"]);

/** Whether an order was paid (a draft, one awaiting payment or a declined one was not). @param {{status?: string} | null | undefined} order */
export const isPaid = (order) => Boolean(order && order.status && PAID_STATUSES.includes(order.status));
