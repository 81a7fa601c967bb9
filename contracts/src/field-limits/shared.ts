// Limits every resource shares: the length of an email address, of a record id a request names
// (in a body, a query or a path), and of a paging cursor. How the limits are read: ./index.ts.

/** The longest email address accepted anywhere (RFC 5321's path limit). */
export const EMAIL_MAX = 254;

/** The longest record id a request may name (customerId, contactId, ownerId, a path's :id...). */
export const ID_REF_MAX = 100;

/** The longest paging cursor a list accepts (the nextCursor of the previous page). */
export const CURSOR_MAX = 1000;
