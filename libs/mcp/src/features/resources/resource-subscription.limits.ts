/** Most URIs one session may watch, so a client cannot grow an instance's memory (or its stored record) without bound. */
export const MAX_SUBSCRIPTIONS_PER_SUBSCRIBER = 1000;
